package main

import (
	"encoding/base64"
	"encoding/json"
	"strconv"
	"strings"
)

// GCI login flags the stand-in acts on (gci-ts.md section 5).
const (
	loginPwEncrypted = 0x1
	loginOneTimePw   = 0x400
	loginJWT         = 0x800
)

// EncryptedPrefix is what the stand-in's GciTsEncrypt puts before a password: the stand-in's
// "encryption" is a marker, not a cipher.
const encryptedPrefix = "standin-encrypted:"

// loginParams is the login frame: the strings the library sends, in this order.
type loginParams struct {
	stoneNRS   string
	gemNRS     string
	user       string
	password   string
	hostUser   string
	flags      uint32
	sessionDir string
}

// loginInfo is what the gem records about its login; it never holds the password.
type loginInfo struct {
	Stone     string            `json:"stone"`
	User      string            `json:"user"`
	Flags     uint32            `json:"flags"`
	HostUser  string            `json:"hostUser"`
	GemConfig map[string]string `json:"gemConfig"`
	JWTSub    string            `json:"jwtSub,omitempty"`
}

func parseLogin(payload []byte) (loginParams, error) {
	list, err := decodeStrings(payload)
	if err != nil {
		return loginParams{}, err
	}
	if len(list) != 7 {
		return loginParams{}, errShortPayload
	}
	flags, err := strconv.ParseUint(list[5], 10, 32)
	if err != nil {
		return loginParams{}, err
	}
	return loginParams{list[0], list[1], list[2], list[3], list[4], uint32(flags), list[6]}, nil
}

// stoneName is the last field of a stone NRS ("!tcp@host#server!gs64stone" → "gs64stone").
func stoneName(nrs string) string {
	nrs = strings.TrimRight(nrs, "!")
	if i := strings.LastIndexByte(nrs, '!'); i >= 0 {
		return nrs[i+1:]
	}
	return nrs
}

// gemConfig parses the "-C NAME=value;..." part of a gem NRS body. As with a real netldi,
// the body is a command line: a space ends the -C argument and drops the rest.
func gemConfig(nrs string) map[string]string {
	out := map[string]string{}
	i := strings.Index(nrs, " -C ")
	if i < 0 {
		return out
	}
	body := nrs[i+len(" -C "):]
	if sp := strings.IndexByte(body, ' '); sp >= 0 {
		body = body[:sp]
	}
	for _, item := range strings.Split(body, ";") {
		if name, value, ok := strings.Cut(item, "="); ok && name != "" {
			out[name] = value
		}
	}
	return out
}

// checkLogin is the stand-in stone's verdict on a login. The failures mirror GemStone's
// numbers: 4065 no such stone, 4051 bad user or password.
func checkLogin(p loginParams) (loginInfo, *gemError) {
	info := loginInfo{Stone: stoneName(p.stoneNRS), User: p.user, Flags: p.flags, HostUser: p.hostUser, GemConfig: gemConfig(p.gemNRS)}
	if info.Stone == "" || info.Stone == "nostone" {
		return info, &gemError{number: 4065, fatal: true,
			message: "the stand-in has no stone named '" + info.Stone + "' (GCI TEST STAND-IN, not GemStone)"}
	}
	denied := &gemError{number: 4051, fatal: true,
		message: "the userId/password combination is invalid or expired (GCI TEST STAND-IN, not GemStone)"}
	password := p.password
	if p.flags&loginPwEncrypted != 0 {
		plain, ok := strings.CutPrefix(password, encryptedPrefix)
		if !ok {
			return info, denied
		}
		password = plain
	}
	if p.user == "" || p.user == "baduser" || password == "wrong" || password == "" {
		return info, denied
	}
	if p.flags&loginJWT != 0 {
		sub, ok := jwtSubject(password)
		if !ok {
			return info, denied
		}
		// The stand-in takes the token's word for it; a real stone verifies the signature.
		info.JWTSub = sub
		if sub != "" {
			info.User = sub
		}
	}
	return info, nil
}

// jwtSubject answers the sub claim of something shaped like a JWT (three base64url parts,
// the middle one a JSON object). It does not verify anything.
func jwtSubject(token string) (string, bool) {
	parts := strings.Split(token, ".")
	if len(parts) != 3 || parts[0] == "" || parts[1] == "" || parts[2] == "" {
		return "", false
	}
	body, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[1], "="))
	if err != nil {
		return "", false
	}
	var claims struct {
		Sub string `json:"sub"`
	}
	if json.Unmarshal(body, &claims) != nil {
		return "", false
	}
	return claims.Sub, true
}
