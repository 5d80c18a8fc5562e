#!/bin/sh
# Entrypoint of the Placet image (also usable on any host: PLACET_HOME is the installed app, /app in the image).
#   placet [serve]             run the server (the default)
#   placet migrate             bring the database up to date
#   placet hosting-key:rotate  print a new generated Hosting API key
#   placet backup <file>       online backup of the SQLite database
#   placet healthcheck         exit 0 when this instance answers /healthz
#   placet <any command>       run it (e.g. sh)
set -eu
home=${PLACET_HOME:-/app}
cli() { script=$1; shift; exec node "$home/dist/src/cli/$script.js" "$@"; }
command=${1:-serve}
[ "$#" -gt 0 ] && shift
case "$command" in
  serve) exec node --max-semi-space-size=32 "$home/dist/src/server.js" "$@" ;;
  migrate) cli migrate "$@" ;;
  hosting-key:rotate) cli rotate-hosting-key "$@" ;;
  backup) cli backup "$@" ;;
  healthcheck) cli healthcheck "$@" ;;
  *) exec "$command" "$@" ;;
esac
