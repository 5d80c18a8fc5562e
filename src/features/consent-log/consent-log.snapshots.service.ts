import type { Deps } from '../../deps.js';
import { snapshotOf } from './consent-log.snapshot.js';
import { keepSnapshot } from './consent-log.snapshots.repository.js';
import { unixNow } from './consent-log.service.js';

/**
 * Keeps the snapshot of a widget configuration about to be served and returns its hash, which the widget
 * gets as `sh` and sends with each decision. Runs when the widget service builds a configuration (a cache
 * miss), not per page view.
 */
export async function keepServedSnapshot(deps: Deps, domainId: string, widgetConfig: object, revision: number): Promise<string> {
  const snapshot = snapshotOf(widgetConfig);
  await keepSnapshot(deps.db, domainId, snapshot, revision, unixNow(deps));
  return snapshot.hash;
}
