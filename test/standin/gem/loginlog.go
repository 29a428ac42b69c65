package main

import (
	"encoding/json"
	"os"
)

// recordLogin appends the gem's login record (what System standinLoginInfo answers, never
// the password) and its session number as one JSON line to the file GCI_STANDIN_LOGIN_LOG
// names, so an end-to-end test can see as whom a server's gems logged in. No knob, no file.
func recordLogin(info loginInfo, session int) {
	path := os.Getenv("GCI_STANDIN_LOGIN_LOG")
	if path == "" {
		return
	}
	line, err := json.Marshal(struct {
		Session int `json:"session"`
		loginInfo
	}{session, info})
	if err != nil {
		return
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	_, _ = f.Write(append(line, '\n')) // one write per line: O_APPEND keeps lines whole
}
