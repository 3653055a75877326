export {
  distanceKm,
  geocodeOffline,
  nearestPlace,
  preloadGazetteer,
  type LatLng,
  type Place,
} from "./gazetteer";
export { geocodeRemote, type RemotePlace } from './geocoder';
