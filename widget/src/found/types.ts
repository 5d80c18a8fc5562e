/** What the service's prefix hands the reporter chunk (src/features/found/found.code.ts). */
export interface FoundSettings {
  /** chunk URL */
  js: string;
  /** report endpoint */
  u: string;
  /** domain id, configuration revision, widget token */
  d: string;
  r: number;
  tk: string;
  /** report at most once per this many ms (localStorage key placet_found_<d>) */
  w: number;
  /** most items per report */
  n: number;
  /** report scripts and iframes (recordScriptsOnWebsite) */
  s: boolean;
  /** report cookie and storage names (permanentScanEnabled) */
  c: boolean;
  /** declared script and iframe markers (lower case) */
  sm: string[];
  fm: string[];
  /** declared asset names (`*` wildcard) and storage types */
  a: [string, string][];
  /** Placet's origin: its own scripts are never reported */
  o: string;
  /** ms after the page's load event before looking (late tags have been added by then) */
  t: number;
}
