export {
  distanceKm,
  geocodeOffline,
  largestPlaces,
  nearestPlace,
  preloadGazetteer,
  type LatLng,
  type Place,
} from './gazetteer';
export { geocodeRemote, type RemotePlace } from './geocoder';
