// proxy-addr ships no types; only compile() is used (lib/core/client-address.ts).
declare module 'proxy-addr' {
  function proxyaddr(req: unknown, trust: (address: string, hop: number) => boolean): string;
  namespace proxyaddr {
    /** A matcher for addresses, CIDRs and the names loopback, linklocal and uniquelocal; throws TypeError on a bad one. */
    function compile(value: string | readonly string[]): (address: string, hop: number) => boolean;
  }
  export = proxyaddr;
}
