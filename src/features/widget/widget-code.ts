import { buildWidget } from '../../../widget/build.js';

const code = new Map<boolean, Promise<string>>();

/**
 * The widget bundles, each built once per process: the base, and the variant with the cross-domain hand-over
 * (`crossDomain`, docs/widget.md). The served widget and the console's theme preview share them.
 */
export const widgetCode = (crossDomain = false): Promise<string> => {
  let built = code.get(crossDomain);
  if (!built) code.set(crossDomain, (built = buildWidget(crossDomain)));
  return built;
};
