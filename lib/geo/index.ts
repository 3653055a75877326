export {
  distanceKm,
  geocodeOffline,
  nearestPlace,
  preloadGazetteer,
  type LatLng,
  type Place,
} from "./gazetteer";
