import { buildWidget } from '../../../widget/build.js';

let code: Promise<string> | undefined;

/** The widget bundle, built once per process: the served widget and the console's theme preview share it. */
export const widgetCode = (): Promise<string> => (code ??= buildWidget());
