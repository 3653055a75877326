export {
  distanceKm,
  geocodeOffline,
  largestPlaces,
  nearestPlace,
  preloadGazetteer,
  type LatLng,
  type Place,
} from "./gazetteer";
