package main

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/test/standin/gemproto"
)

// The stand-in's one-time passwords: the control source "mcp-control:onetime-password v1"
// (docs/read-only-user.md) mints one, and a login with GCI_LOGIN_ONETIME_PASSWORD consumes
// it. Each password is a file in <session dir>.onetime/, beside the session directory (which
// holds only session entries), named by the password's SHA-256 and holding the user and the
// expiry. Removing the file is the consumption: of two logins racing with one password, only
// one remove succeeds.

const oneTimeTag = `"mcp-control:onetime-password v1"`

// oneTimePrefix starts every minted password, so a test can search a log for any of them.
const oneTimePrefix = "standin-otp-"

// errNoPrivilege is GemStone's number for a privilege the session lacks.
const errNoPrivilege = 2151

// noGrantUser is the user the stand-in has no one-time-password grant for, as if
// setup-read-only-user.sh had not been run (the login table's bad user, too).
const noGrantUser = "baduser"

var mintCall = regexp.MustCompile(`createOnetimePasswordForUserId: '([A-Za-z][A-Za-z0-9_]*)' validForSeconds: ([0-9]{1,9})\s*\.?\s*$`)

func oneTimeDir(sessionDir string) string { return filepath.Clean(sessionDir) + ".onetime" }

func oneTimePath(sessionDir, password string) string {
	sum := sha256.Sum256([]byte(password))
	return filepath.Join(oneTimeDir(sessionDir), hex.EncodeToString(sum[:]))
}

// mintOneTime answers the mint source: a fresh password for the named user, remembered until
// it is used or expires.
func (g *gem) mintOneTime(source string) gemproto.Answer {
	m := mintCall.FindStringSubmatch(source)
	if m == nil {
		return errorResult(errCompile, "the one-time-password source is not the one of docs/read-only-user.md")
	}
	user := m[1]
	seconds, _ := strconv.Atoi(m[2])
	if user == noGrantUser {
		return errorResult(errNoPrivilege, "no one-time-password grant for user "+user)
	}
	password, err := rememberOneTime(g.sessions.dir, user, time.Duration(seconds)*time.Second)
	if err != nil {
		return errorResult(errWorkerSignal, "minting a one-time password: "+err.Error())
	}
	return stringResult([]byte(password))
}

func rememberOneTime(sessionDir, user string, validFor time.Duration) (string, error) {
	dir := oneTimeDir(sessionDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	sweepExpiredOneTime(dir)
	random := make([]byte, 24)
	if _, err := rand.Read(random); err != nil {
		return "", err
	}
	password := oneTimePrefix + hex.EncodeToString(random)
	expiry := time.Now().Add(validFor).UnixNano()
	record := fmt.Sprintf("%s\n%d\n", user, expiry)
	if err := os.WriteFile(oneTimePath(sessionDir, password), []byte(record), 0o600); err != nil {
		return "", err
	}
	return password, nil
}

// redeemOneTime consumes password for user: true exactly once for a password minted for that
// user and not yet expired.
func redeemOneTime(sessionDir, user, password string) bool {
	if os.Getenv("GCI_STANDIN_ONETIME_LOGINS") == "refused" {
		return false // as a stone whose worker user went away after the grant was checked
	}
	path := oneTimePath(sessionDir, password)
	forUser, expiry, err := readOneTime(path)
	if err != nil || forUser != user {
		return false
	}
	if os.Remove(path) != nil { // another login used it first
		return false
	}
	return time.Now().UnixNano() <= expiry
}

func readOneTime(path string) (string, int64, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", 0, err
	}
	user, rest, ok := strings.Cut(string(data), "\n")
	if !ok {
		return "", 0, errors.New("malformed one-time password record")
	}
	expiry, err := strconv.ParseInt(strings.TrimSpace(rest), 10, 64)
	return user, expiry, err
}

// sweepExpiredOneTime drops the passwords nobody used in time.
func sweepExpiredOneTime(dir string) {
	entries, _ := os.ReadDir(dir)
	now := time.Now().UnixNano()
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		if _, expiry, err := readOneTime(path); err == nil && expiry < now {
			_ = os.Remove(path)
		}
	}
}
