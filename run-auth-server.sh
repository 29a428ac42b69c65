#!/usr/bin/env bash
# run-auth-server.sh -- start bin/mcp-gemstone detached in the NETWORK-FACING mode (MCP_AUTH=oidc):
# every /mcp request needs a bearer token from MCP_OIDC_ISSUER, each worker gem logs in as the
# GemStone user its token names (JWT login, GemStone 3.7.5+), and TLS is served or terminated in
# front (deploy/nginx). docs/auth.md is the whole story.
#
#   MCP_OIDC_ISSUER=https://id.example/realms/gs MCP_RESOURCE=https://gs.example/mcp \
#   MCP_REQUIRED_SCOPES=mcp:use MCP_TLS_CERT=cert.pem MCP_TLS_KEY=key.pem MCP_HOST=0.0.0.0 \
#     ./run-auth-server.sh
#   MCP_OIDC_ISSUER=... MCP_RESOURCE=https://gs.example/mcp ./run-auth-server.sh
#                                            loopback only, TLS terminated by nginx in front
#
# Required: MCP_OIDC_ISSUER, MCP_RESOURCE (this server's canonical URL: the tokens' aud).
# Optional: MCP_REQUIRED_SCOPES, MCP_EXTRA_SCOPES, MCP_USERID_CLAIM (default sub),
#           MCP_TLS_CERT + MCP_TLS_KEY (both or neither), every other MCP_* variable of run-server.sh.
# Refused: MCP_WORKER_USER (the token names the user); a non-loopback MCP_HOST without TLS (tokens
# would cross the network in the clear). GS_USER and its password are still needed: the router's
# control session (used only to stop a runaway gem) logs in with them; no worker does.
#
# Provision the users first: ./setup-oidc-users.sh <user>... (and after every stone restart).
# Like run-server.sh it refuses a busy port, waits until /readyz answers ready (over HTTPS when TLS
# is on), and writes the pid file stop-server.sh uses: ./stop-server.sh PORT.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=SCRIPTDIR/gs-env.sh
. "$ROOT/gs-env.sh"
[ $# -eq 0 ] || { sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }

gs_env_load_setenv || exit 1
fail() { gs_env__err "$@"; exit 1; }

# ---- the mode's own checks, before anything else --------------------------------------------------
[ -z "${MCP_WORKER_USER:-}" ] || fail "MCP_WORKER_USER=$MCP_WORKER_USER is refused in the network-facing mode" \
  "each worker gem logs in as the GemStone user its bearer token names (MCP_USERID_CLAIM);" \
  "unset it, and restrict an analyst by giving that user a restricted profile"
[ -n "${MCP_OIDC_ISSUER:-}" ] || fail "MCP_OIDC_ISSUER is not set" "the authorization server's issuer URL, exactly as its tokens' iss claim has it"
[ -n "${MCP_RESOURCE:-}" ] || fail "MCP_RESOURCE is not set" "this server's canonical URL as clients reach it (https://host/mcp); tokens must carry it in aud"
if [ -n "${MCP_TLS_CERT:-}${MCP_TLS_KEY:-}" ]; then
  if [ -z "${MCP_TLS_CERT:-}" ] || [ -z "${MCP_TLS_KEY:-}" ]; then fail "set both MCP_TLS_CERT and MCP_TLS_KEY, or neither"; fi
  [ -r "$MCP_TLS_CERT" ] || fail "MCP_TLS_CERT=$MCP_TLS_CERT is not readable"
  [ -r "$MCP_TLS_KEY" ] || fail "MCP_TLS_KEY=$MCP_TLS_KEY is not readable"
  SCHEME=https
else
  SCHEME=http
fi
HOST="${MCP_HOST:-127.0.0.1}"
case "$HOST" in
  127.*|localhost|::1|"[::1]") ;;
  *) [ "$SCHEME" = https ] || fail "MCP_HOST=$HOST is not loopback and no TLS is configured: bearer tokens would cross the network in the clear" \
       "set MCP_TLS_CERT and MCP_TLS_KEY, or keep MCP_HOST=127.0.0.1 behind a TLS proxy (deploy/nginx)" ;;
esac
case "$MCP_RESOURCE" in
  https://*) ;;
  http://127.*|http://localhost*|http://\[::1\]*) gs_env__note "MCP_RESOURCE is plain http on loopback: fine for a test, never for clients on a network" ;;
  *) fail "MCP_RESOURCE=$MCP_RESOURCE must be an https URL (http only for a loopback host)" ;;
esac
command -v curl >/dev/null || fail "curl is not on PATH" "it is how this script asks the server whether it is ready; install curl"
# The router retries discovery on its own; this is only to say early that the issuer is unreachable.
if ! curl -fsS --max-time 10 -o /dev/null "${MCP_OIDC_ISSUER%/}/.well-known/openid-configuration"; then
  gs_env__note "${MCP_OIDC_ISSUER%/}/.well-known/openid-configuration does not answer from here" \
    "the server starts anyway and answers 503 until it can fetch it"
fi

# ---- as run-server.sh: port, binary, stone, control session ---------------------------------------
# shellcheck source=SCRIPTDIR/server-process.sh
. "$ROOT/server-process.sh"
server_settings || exit 1
server_claim_port "$0" || exit 1
gs_env_for_server "the server (one gem per MCP session, plus its control session)" || exit 1
server_open_log || exit 1
export MCP_AUTH=oidc MCP_PORT="$SERVER_PORT" MCP_HOST="$HOST"
log_start=$(($(wc -l <"$SERVER_LOG") + 1))
printf '\n=== %s run-auth-server.sh: starting %s on %s://%s:%s (stone %s, control user %s, issuer %s, resource %s)\n' \
  "$(date -u +%FT%TZ)" "$SERVER_BIN" "$SCHEME" "$HOST" "$SERVER_PORT" "$GS_STONE" "$GS_USER" "$MCP_OIDC_ISSUER" "$MCP_RESOURCE" >>"$SERVER_LOG"
url_host="$(server_url_host "$HOST")"
server_launch "$SCHEME" "$url_host" "$log_start" "to $GS_STONE as $GS_USER" || exit 1
# Asked of the server, not its log: a token-shaped string no issuer signed is refused 401 once the
# issuer's discovery document is in hand, 503 while it cannot be fetched (the server retries).
probe="$(curl -sk --max-time 20 -o /dev/null -w '%{http_code}' -X POST -H 'Authorization: Bearer not.a.token' \
  "$SCHEME://$url_host:$SERVER_PORT/mcp" 2>/dev/null || true)"
if [ "$probe" = 503 ]; then
  gs_env__note "the server could not fetch the issuer's discovery document yet (it retries); until then /mcp answers 503"
fi

echo "mcp-gemstone (network-facing) is serving $SCHEME://$url_host:$SERVER_PORT/mcp"
echo "  resource  $MCP_RESOURCE (the aud every token must carry)"
echo "  metadata  $(printf '%s' "$MCP_RESOURCE" | sed -E 's#^(https?://[^/]+)(/.*)?$#\1/.well-known/oauth-protected-resource\2#')"
echo "  issuer    $MCP_OIDC_ISSUER"
echo "  pid       $SERVER_PID (pid file $SERVER_PID_FILE)"
echo "  log       $SERVER_LOG"
echo "  stop      ./stop-server.sh $SERVER_PORT"
