export {
  distanceKm,
  geocodeOffline,
  largestPlaces,
  nearestPlace,
  preloadGazetteer,
  strongNamesakes,
  unplacedDistrict,
  type LatLng,
  type Place,
} from './gazetteer';
export { geocodeRemote, type RemotePlace } from './geocoder';
