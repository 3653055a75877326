export {
  distanceKm,
  geocodeOffline,
  largestPlaces,
  nearestPlace,
  preloadGazetteer,
  unplacedDistrict,
  type LatLng,
  type Place,
} from './gazetteer';
export { geocodeRemote, type RemotePlace } from './geocoder';
