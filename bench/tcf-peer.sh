#!/usr/bin/env bash
# `bash bench/tcf-peer.sh`: the brotli bytes of a peer CMP's TCF bundle from npm, beside ours (docs/tcf.md, "Bytes").
# The peer is c15t (Apache-2.0), the one open-source TCF CMP found on the npm registry. Its IAB runtime
# (@c15t/iab: TC string, __tcfapi) is not published there, so what is measured is a lower bound: the headless
# core `c15t` and `@c15t/react`'s IAB banner and dialog, bundled and minified with our esbuild, React left out
# (a page has to bring its own). Installs into a temporary directory, never into the project.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
cd "$dir"
npm init -y >/dev/null
npm install --no-audit --no-fund --silent c15t@2.2.1 @c15t/react@2.2.1 react@19 react-dom@19
printf "export * from 'c15t';\n" > core.js
printf "export { ConsentManagerProvider } from '@c15t/react';\nexport { IABConsentBanner, IABConsentDialog } from '@c15t/react/iab';\n" > iab.js
esbuild="$root/node_modules/.bin/esbuild"
common=(--bundle --minify --format=esm --platform=browser "--define:process.env.NODE_ENV=\"production\"" --loader:.css=empty --log-level=warning)
"$esbuild" core.js "${common[@]}" --outfile=out/c15t-core.js
"$esbuild" iab.js "${common[@]}" --external:react --external:react-dom --external:react/jsx-runtime --outfile=out/c15t-react-iab-ui.js
for f in out/*.js; do
  node -e "const z=require('zlib'),b=require('fs').readFileSync('$f');console.log('$(basename "$f")'.padEnd(26),b.length,'B raw',z.gzipSync(b,{level:9}).length,'B gzip',z.brotliCompressSync(b,{params:{[z.constants.BROTLI_PARAM_QUALITY]:11}}).length,'B brotli')"
done
