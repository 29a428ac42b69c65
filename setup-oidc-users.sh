#!/usr/bin/env bash
# setup-oidc-users.sh -- provision GemStone users for JWT login (GemStone 3.7.5+), so that
# run-auth-server.sh can log each worker gem in as the user a bearer token names, with the token
# itself as the password. The stone verifies every token again at login; the router holds no key.
#
#   ./setup-oidc-users.sh alice bob            trust the issuer's keys, enable JWT login for both
#   ./setup-oidc-users.sh --check-token FILE   decode a sample access token and report the traps
#   ./setup-oidc-users.sh --dry-run alice      print the topaz script instead of running it
#
# Read from the environment (the same variables run-auth-server.sh reads, so one file feeds both):
#   MCP_OIDC_ISSUER     the tokens' iss, compared as a string by the stone            (required)
#   MCP_RESOURCE        the tokens' aud: ONE string, this server's canonical URL        (required)
#   MCP_USERID_CLAIM    the claim naming the GemStone user (default sub; Keycloak: preferred_username)
#   The issuer's signing key, one of:
#   MCP_OIDC_KEY_FILE   a PEM public key, as a path ON THE STONE'S HOST (the gem reads it), with
#   MCP_OIDC_KEY_ID     its kid (the kid header of the tokens)
#   (neither)           the keys are fetched now from the issuer's discovery document and JWKS
#                       (needs curl and python3 here; RSA signature keys only)
#   MCP_OIDC_SAMPLE_TOKEN_FILE  a file holding a real access token to check (as --check-token)
#
# What it does, in one transaction: trusts each key (System addJwtKey:withId: -- IN MEMORY ONLY:
# re-run after every stone restart), and for each user: creates it if absent (random password,
# never shown; Mcp in its symbol list) or keeps it as it is, then enables JWT login with exactly
# this issuer, this audience, this user id and this claim. An existing user keeps its objects,
# symbol list and privileges. Restricting an analyst = giving that user a restricted profile.
#
# Stone-side traps it checks and reports (docs/auth.md):
#   - aud must be a single JSON string; GemStone 3.7.5 refuses an array ("Invalid or missing aud",
#     primitive 295), whatever it contains. --check-token shows what the IdP really issues.
#   - 3.7.5 JwtSecurityData>>validateAudiences checks the ISSUER set by mistake, so the kernel
#     would accept an empty audience set and every login would then fail; this script checks the
#     audience set itself and reports whether the image has the defect.
#   - the persistent alternative to addJwtKey:, STN_OPENID_DISCOVERY_URLS in the stone's config,
#     stops the stone from starting when discovery fails; this script does not use it.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=SCRIPTDIR/gs-env.sh
. "$ROOT/gs-env.sh"

usage() { sed -n '2,34p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
DRY_RUN=0 SAMPLE="${MCP_OIDC_SAMPLE_TOKEN_FILE:-}" USERS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --dry-run) DRY_RUN=1 ;;
    --check-token) [ $# -ge 2 ] || usage; SAMPLE="$2"; shift ;;
    -h|--help|-*) usage ;;
    *) USERS+=("$1") ;;
  esac
  shift
done

gs_env_load_setenv || exit 1
ISSUER="${MCP_OIDC_ISSUER:-}"
AUDIENCE="${MCP_RESOURCE:-}"
CLAIM="${MCP_USERID_CLAIM:-sub}"
fail() { gs_env__err "$@"; exit 1; }

# Every value below is pasted into a Smalltalk string literal: refuse anything with a quote rather
# than escape it, so what the stone stores is exactly what was configured.
[ -n "$ISSUER" ] || fail "MCP_OIDC_ISSUER is not set" "set it to the issuer URL, exactly as the tokens' iss claim has it"
[ -n "$AUDIENCE" ] || fail "MCP_RESOURCE is not set" "set it to this server's canonical URL (https://host/mcp): the tokens' aud"
[[ "$ISSUER" =~ ^https?://[^[:space:]\'\"]+$ ]] || fail "MCP_OIDC_ISSUER='$ISSUER' is not an http(s) URL without quotes or spaces"
[[ "$AUDIENCE" =~ ^https?://[^[:space:]\'\"#]+$ ]] || fail "MCP_RESOURCE='$AUDIENCE' is not an http(s) URL without quotes, spaces or fragment"
[[ "$CLAIM" =~ ^[A-Za-z0-9_.:-]+$ ]] || fail "MCP_USERID_CLAIM='$CLAIM' is not a claim name (letters, digits, _ . : -)"
for u in "${USERS[@]}"; do
  [[ "$u" =~ ^[A-Za-z0-9_.@-]{1,64}$ ]] || fail "user id '$u' must be 1-64 of: letters digits _ . @ -"
done

# ---- the sample token: what the IdP really issues ------------------------------------------------
check_token() {
  local file="$1" report
  [ -r "$file" ] || fail "cannot read the sample token file $file"
  command -v python3 >/dev/null || fail "python3 is needed to decode the sample token"
  # The token is read from the file by python itself: never on a command line, never printed.
  report="$(ISSUER="$ISSUER" AUDIENCE="$AUDIENCE" CLAIM="$CLAIM" USERS="${USERS[*]:-}" python3 - "$file" <<'PY'
import base64, json, os, sys, time
raw = open(sys.argv[1]).read().strip()
if raw.lower().startswith("bearer "):
    raw = raw[7:].strip()
parts = raw.split(".")
if len(parts) != 3:
    print("fail the sample is not a JWT (three dot-separated parts)"); sys.exit(0)
def b64(s):
    return base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))
try:
    head, body = json.loads(b64(parts[0])), json.loads(b64(parts[1]))
except Exception:
    print("fail the sample's header or payload is not base64url JSON"); sys.exit(0)
alg, kid = head.get("alg", ""), head.get("kid", "")
print(("ok" if alg.startswith(("RS", "PS", "ES")) else "fail") + " alg " + alg + (" kid " + kid if kid else " (no kid: the stone cannot pick a key)"))
iss, aud = body.get("iss"), body.get("aud")
print(("ok" if iss == os.environ["ISSUER"] else "fail") + " iss " + json.dumps(iss) + ("" if iss == os.environ["ISSUER"] else " is not MCP_OIDC_ISSUER"))
if isinstance(aud, list):
    print("fail aud is a JSON array " + json.dumps(aud) + ": GemStone 3.7.5 refuses every such token at login "
          "(\"Invalid or missing aud\", primitive 295) even when it holds the right value; make the IdP issue ONE "
          "audience string (Keycloak: a single audience mapper, and no other client in aud)")
elif aud == os.environ["AUDIENCE"]:
    print("ok aud " + json.dumps(aud))
else:
    print("fail aud " + json.dumps(aud) + " is not MCP_RESOURCE")
user = body.get(os.environ["CLAIM"])
users = os.environ["USERS"].split()
if not isinstance(user, str) or not user:
    print("fail the token has no string claim " + os.environ["CLAIM"] + " (MCP_USERID_CLAIM): no GemStone user is named")
else:
    print(("ok" if not users or user in users else "note") + " user " + user + " (claim " + os.environ["CLAIM"] + ")" +
          ("" if not users or user in users else ": not among the users provisioned now"))
exp = body.get("exp")
if not isinstance(exp, (int, float)):
    print("fail the token has no numeric exp")
elif exp > time.time():
    print("ok exp in %ds" % int(exp - time.time()))
else:
    print("note the sample expired %ds ago (its claims were checked all the same)" % int(time.time() - exp))
PY
)"
  echo "sample token $file:"
  sed -e 's/^ok /  ok    /' -e 's/^note /  note  /' -e 's/^fail /  FAIL  /' <<<"$report"
  ! grep -q '^fail ' <<<"$report"
}

if [ -n "$SAMPLE" ]; then
  check_token "$SAMPLE" || { [ ${#USERS[@]} -gt 0 ] && fail "the sample token would not log in; fix the IdP first (above)"; exit 1; }
  [ ${#USERS[@]} -gt 0 ] || exit 0
fi
[ ${#USERS[@]} -gt 0 ] || usage

# ---- the keys ------------------------------------------------------------------------------------
# KEYS: lines "kid<TAB>path-of-PEM-on-the-stone's-host".
KEYS=""
if [ -n "${MCP_OIDC_KEY_FILE:-}" ]; then
  [ -n "${MCP_OIDC_KEY_ID:-}" ] || fail "MCP_OIDC_KEY_FILE is set but MCP_OIDC_KEY_ID is not" "set it to the kid in the tokens' header"
  [[ "$MCP_OIDC_KEY_FILE$MCP_OIDC_KEY_ID" != *[\'\"]* ]] || fail "MCP_OIDC_KEY_FILE and MCP_OIDC_KEY_ID must not contain quotes"
  KEYS="$MCP_OIDC_KEY_ID	$MCP_OIDC_KEY_FILE"
else
  command -v curl >/dev/null || fail "curl is needed to fetch the issuer's keys" "or give MCP_OIDC_KEY_FILE and MCP_OIDC_KEY_ID"
  command -v python3 >/dev/null || fail "python3 is needed to turn the issuer's JWKS into PEM" "or give MCP_OIDC_KEY_FILE and MCP_OIDC_KEY_ID"
  KEYDIR="$ROOT/build/setup/oidc-keys"
  mkdir -p "$KEYDIR"
  disco="$(curl -fsS --max-time 15 "${ISSUER%/}/.well-known/openid-configuration")" ||
    fail "cannot fetch ${ISSUER%/}/.well-known/openid-configuration" "is MCP_OIDC_ISSUER right and the issuer up? Or give MCP_OIDC_KEY_FILE"
  jwks_uri="$(python3 -c 'import json,sys; d=json.load(sys.stdin); print(d.get("jwks_uri","")); sys.exit(0 if d.get("issuer")==sys.argv[1] else 3)' "$ISSUER" <<<"$disco")" ||
    fail "the discovery document's issuer is not MCP_OIDC_ISSUER exactly" "the stone compares iss as a string: use the document's own issuer value"
  [ -n "$jwks_uri" ] || fail "the discovery document has no jwks_uri"
  jwks="$(curl -fsS --max-time 15 "$jwks_uri")" || fail "cannot fetch the JWKS at $jwks_uri"
  # RSA signature keys to PEM (SubjectPublicKeyInfo, DER built by hand: no crypto module needed).
  KEYS="$(JWKS="$jwks" python3 - "$KEYDIR" <<'PY'
import base64, json, os, re, sys
def der_len(n):
    if n < 128: return bytes([n])
    b = n.to_bytes((n.bit_length() + 7) // 8, "big"); return bytes([0x80 | len(b)]) + b
def tlv(tag, body): return bytes([tag]) + der_len(len(body)) + body
def integer(b):
    b = b.lstrip(b"\0") or b"\0"
    return tlv(0x02, (b"\0" + b) if b[0] & 0x80 else b)
def b64(s): return base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))
out = []
for k in json.loads(os.environ["JWKS"]).get("keys", []):
    kid = k.get("kid", "")
    if k.get("kty") != "RSA" or k.get("use", "sig") != "sig" or not re.fullmatch(r"[A-Za-z0-9_.:-]{1,200}", kid):
        print("note: skipped a key the stone is not given (RSA signature keys only): " + json.dumps({x: k.get(x) for x in ("kid", "kty", "use", "alg")}), file=sys.stderr); continue
    rsa = tlv(0x30, integer(b64(k["n"])) + integer(b64(k["e"])))
    spki = tlv(0x30, tlv(0x30, bytes.fromhex("06092a864886f70d0101010500")) + tlv(0x03, b"\0" + rsa))
    body = base64.b64encode(spki).decode()
    path = os.path.join(sys.argv[1], re.sub(r"[^A-Za-z0-9_.-]", "_", kid) + ".pem")
    with open(path, "w") as f:
        f.write("-----BEGIN PUBLIC KEY-----\n" + "\n".join(body[i:i+64] for i in range(0, len(body), 64)) + "\n-----END PUBLIC KEY-----\n")
    out.append(kid + "\t" + path)
print("\n".join(out))
PY
)"
  [ -n "$KEYS" ] || fail "the JWKS at $jwks_uri holds no RSA signature key with a usable kid"
  gs_env__note "the keys were written under $KEYDIR; the gem reads them there, so the stone must run on this host" \
    "(otherwise copy them to the stone's host and use MCP_OIDC_KEY_FILE / MCP_OIDC_KEY_ID)"
fi

echo "provisioning JWT login in ${GS_STONE:-the stone} for: ${USERS[*]}"
echo "  issuer      $ISSUER"
echo "  audience    $AUDIENCE   (tokens must carry it as ONE string)"
echo "  user claim  $CLAIM"
while IFS=$'\t' read -r kid path; do echo "  key         kid $kid from $path (in memory: re-run after a stone restart)"; done <<<"$KEYS"

# ---- the topaz script ----------------------------------------------------------------------------
# smalltalk/scripts/setup-oidc-users.gs (checked by bin/gscheck). Created users get a random
# password that nothing uses: JWT is how they log in.
smalltalk() {
  gs_env_smalltalk setup-oidc-users KEYS "$KEYS" USERS "$(printf '%s\n' "${USERS[@]}")" \
    CLAIM "$CLAIM" ISSUER "$ISSUER" AUDIENCE "$AUDIENCE" \
    PASSWORD "$(dd if=/dev/urandom bs=512 count=1 2>/dev/null | LC_ALL=C tr -dc 'A-Za-z0-9' | cut -c1-40)"
}

if [ "$DRY_RUN" = 1 ]; then
  smalltalk | sed -E "s/(addNewUserWithId: uid password: ')[A-Za-z0-9]+'/\1<random>'/"
  exit 0
fi
gs_env_load || exit 1
gs_env_require_password || exit 1
gs_env_require_topaz || exit 1
LOG="$ROOT/build/setup/oidc-users.log"
mkdir -p "$(dirname "$LOG")"
smalltalk | { gs_env_topaz "$LOG" || true; }
# The random password is in the echoed source: take it out of the log.
sed -i -E "s/(addNewUserWithId: uid password: ')[A-Za-z0-9]+'/\1<redacted>'/" "$LOG"

marks="$(gs_env_marked "$LOG")"
version="$(sed -n 's/^version //p' <<<"$marks")"
if ! grep -qx 'done oidc' <<<"$marks" || grep -q '^fail ' <<<"$marks" || ! grep -qx committed <<<"$marks"; then
  sed -n 's/^fail /error: /p' <<<"$marks" >&2
  echo "error: provisioning did not complete (nothing committed); the end of $LOG:" >&2
  grep -v '^MCPI ' "$LOG" | tail -n 15 | sed 's/^/    /' >&2
  exit 1
fi
echo "GemStone $version:"
sed -n -e 's/^key /  trusted key  /p' -e 's/^created /  created      /p' -e 's/^updated /  updated      /p' \
       -e 's/^symbols /  Mcp added to the symbol list of /p' -e 's/^warn /  WARNING      /p' <<<"$marks"
if grep -qx 'defect true' <<<"$marks"; then
  echo "  trap         this image has the 3.7.5 validateAudiences defect (it checks issuers): the audience"
  echo "               set was checked by this script instead -- it holds exactly MCP_RESOURCE"
else
  echo "  trap         validateAudiences defect not detected in this image"
fi
echo "  trap         aud must be ONE string: a token whose aud is an array is refused at login on 3.7.5"
[ -n "$SAMPLE" ] || echo "               (check what your IdP issues: $0 --check-token <file holding a token>)"
echo "  remember     the keys are in the stone's memory only: re-run this after every stone restart"
echo
echo "start the network-facing server:  ./run-auth-server.sh"
