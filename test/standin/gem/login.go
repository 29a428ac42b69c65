package main

import (
	"encoding/base64"
	"encoding/json"
	"strings"

	"github.com/gemstone-mcp/mcp-gemstone/test/standin/gemproto"
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

// loginInfo is what the gem records about its login; it never holds the password.
type loginInfo struct {
	Stone     string            `json:"stone"`
	User      string            `json:"user"`
	Flags     uint32            `json:"flags"`
	HostUser  string            `json:"hostUser"`
	GemConfig map[string]string `json:"gemConfig"`
	JWTSub    string            `json:"jwtSub,omitempty"`
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
func checkLogin(p gemproto.LoginParams) (loginInfo, *gemproto.GemError) {
	info := loginInfo{Stone: stoneName(p.StoneNRS), User: p.User, Flags: p.Flags, HostUser: p.HostUser, GemConfig: gemConfig(p.GemNRS)}
	if info.Stone == "" || info.Stone == "nostone" {
		return info, &gemproto.GemError{Number: 4065, Fatal: true,
			Message: "the stand-in has no stone named '" + info.Stone + "' (GCI TEST STAND-IN, not GemStone)"}
	}
	denied := &gemproto.GemError{Number: 4051, Fatal: true,
		Message: "the userId/password combination is invalid or expired (GCI TEST STAND-IN, not GemStone)"}
	password := p.Password
	if p.Flags&loginPwEncrypted != 0 {
		plain, ok := strings.CutPrefix(password, encryptedPrefix)
		if !ok {
			return info, denied
		}
		password = plain
	}
	if p.User == "" || p.User == "baduser" || password == "wrong" || password == "" {
		return info, denied
	}
	if p.Flags&loginOneTimePw != 0 && !redeemOneTime(p.SessionDir, p.User, password) {
		return info, denied // unknown, used, expired, or minted for another user
	}
	if p.Flags&loginJWT != 0 {
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
