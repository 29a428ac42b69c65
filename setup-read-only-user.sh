#!/usr/bin/env bash
# setup-read-only-user.sh -- provision the restricted GemStone user browsing-only workers log in as,
# and let the server's own user (GS_USER) mint one-time passwords for it.
#
#   ./setup-read-only-user.sh                  create (or re-create) McpReadOnly
#   MCP_WORKER_USER=McpReadOnly ./run-server.sh   then every worker gem is that user
#
# The user gets: UserProfile>>disableCommits (every session of it is commit-locked from login,
# forked gems included), the privileges in MCP_RO_PRIVS (default below), Mcp in its symbol list,
# and a random password that is never printed or stored -- nothing logs in with it. The one
# committed grant `(GS_USER's profile) addOnetimePasswordUserId: '<user>'` is what lets the server's
# control session mint a one-time password per worker login, so the server holds only the user's
# name. docs/read-only-user.md says what each privilege does and what stays open.
#
#   MCP_RO_USER            the user to create (default McpReadOnly)
#   MCP_RO_PRIVS           space-separated privileges (default: the list below; '' for none)
#   MCP_COPY_SYMBOL_LIST   1 (default): give it GS_USER's symbol list, so browsing resolves the same
#                          names; 0: only Mcp plus a new profile's defaults
# Re-running re-creates the user (objects it owns go with it) -- stop servers using it first.
# Run ./install.sh before this: the user needs the Mcp dictionary to exist.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=SCRIPTDIR/gs-env.sh
. "$ROOT/gs-env.sh"
[ $# -eq 0 ] || { sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }

DEFAULT_PRIVS="CodeModification NoPerformOnServer NoUserAction NoGsFileOnServer NoGsFileOnClient"
gs_env_load || exit 1
gs_env_require_password || exit 1
gs_env_require_topaz || exit 1
RO_USER="${MCP_RO_USER:-McpReadOnly}"
RO_PRIVS="${MCP_RO_PRIVS-$DEFAULT_PRIVS}"
COPY="${MCP_COPY_SYMBOL_LIST:-1}"
[[ "$RO_USER" =~ ^[A-Za-z][A-Za-z0-9_]*$ ]] || { echo "error: MCP_RO_USER='$RO_USER' must be letters, digits and _" >&2; exit 1; }
for p in $RO_PRIVS; do [[ "$p" =~ ^[A-Za-z]+$ ]] || { echo "error: '$p' in MCP_RO_PRIVS is not a privilege name" >&2; exit 1; }; done
# 40 random alphanumerics; the stone requires a password, nothing ever uses this one.
RO_PASSWORD="$(dd if=/dev/urandom bs=512 count=1 2>/dev/null | LC_ALL=C tr -dc 'A-Za-z0-9' | cut -c1-40)"

echo "provisioning $RO_USER in $GS_STONE (as $GS_USER):"
echo "  commits      disabled on the profile (every session, forked gems included)"
echo "  privileges   ${RO_PRIVS:-(none)}"
echo "  symbol list  $([ "$COPY" = 1 ] && echo "copied from $GS_USER" || echo "Mcp + a new profile's defaults")"
echo "  grant        $GS_USER may mint one-time passwords for $RO_USER"

LOGDIR="$ROOT/build/setup"
mkdir -p "$LOGDIR"
LOG="$LOGDIR/read-only-user.log"
# The Smalltalk: smalltalk/scripts/setup-read-only-user.gs (checked by bin/gscheck).
gs_env_smalltalk setup-read-only-user UID "$RO_USER" PRIVS "$RO_PRIVS" COPY "$COPY" PASSWORD "$RO_PASSWORD" |
  { gs_env_topaz "$LOG" || true; }

marks="$(gs_env_marked "$LOG")"
if ! grep -qx 'done readonly' <<<"$marks" || grep -q '^fail ' <<<"$marks"; then
  sed -n 's/^fail /error: /p' <<<"$marks" >&2
  echo "error: provisioning did not complete; the end of $LOG:" >&2
  grep -v '^MCPI ' "$LOG" | tail -n 15 | sed 's/^/    /' >&2
  exit 1
fi
sed -n -e 's/^user /  created /p' -e 's/^privileges /  privileges now:/p' -e 's/^grant \(.*\) \(.*\)/  granted: \1 mints one-time passwords for \2/p' <<<"$marks"
if grep -q '^mint-failed' <<<"$marks"; then
  echo "error: the grant is committed, but $GS_USER could not mint a one-time password for $RO_USER:" >&2
  sed -n 's/^mint-failed /  /p' <<<"$marks" >&2
  echo "  the server's worker logins as $RO_USER will fail the same way; $GS_USER likely lacks the" >&2
  echo "  CreateOnetimePassword privilege (see docs/read-only-user.md)" >&2
  exit 1
fi
echo "  checked: $GS_USER minted a one-time password for $RO_USER (not shown, valid 5s)"
echo
echo "start a browsing-only server:  MCP_WORKER_USER=$RO_USER ./run-server.sh"
