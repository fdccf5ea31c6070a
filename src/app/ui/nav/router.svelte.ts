// The current route, as reactive state that follows the location hash. Components read
// `router.route`; links are plain <a href="#/..."> so the browser's history, Back button
// and "open in new tab" all work without any code here.

import { parseRoute, routeHref, type Route } from './routes.ts';

class Router {
  route = $state<Route>(parseRoute(location.hash));

  constructor() {
    addEventListener('hashchange', () => {
      this.route = parseRoute(location.hash);
    });
  }

  go(route: Route): void {
    const href = routeHref(route);
    if (href !== location.hash) location.hash = href;
  }

  /** Goes to `route` in place of the current history entry (Back skips the one left). */
  replace(route: Route): void {
    history.replaceState(history.state, '', routeHref(route));
    this.route = parseRoute(location.hash);
  }
}

export const router = new Router();
