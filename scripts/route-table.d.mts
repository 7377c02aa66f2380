// Types of route-table.mjs, for the tests that read the route table.
export interface RouteEntry {
  /** the route's file, e.g. `app/silo/v1/entries/route.ts` */
  file: string;
  /** the URL pattern as Next spells it: `/silo/v1/entries/[entry_id]`, `/api/auth/[...nextauth]` */
  pattern: string;
  /** the methods served, in METHODS order; OPTIONS is never among them (the server answers it) */
  methods: string[];
  /** a Pages route's public path (its beforeFiles rewrite only prefixes /api): the server sends it to '/api' + the path */
  api?: true;
}
export interface MatchedRoute {
  methods: Set<string>;
  allow: string;
  pattern: string;
  /** the request goes to '/api' + its path (scripts/serve.mjs) */
  api: boolean;
}
export const METHODS: readonly string[];
export const TABLE_FILE: string;
export function allowOf(methods: readonly string[]): string;
export function deriveRoutes(root: string): Promise<RouteEntry[]>;
export function writeRouteTable(root: string): Promise<void>;
export function readRouteTable(root: string): Promise<RouteEntry[]>;
export function routeMatcher(routes: RouteEntry[]): (pathname: string) => MatchedRoute | undefined;
