package gemstone

import (
	"fmt"
	"strings"
)

// nrsSpecial are the characters the NRS syntax gives a meaning; none may appear in a host,
// a NetLDI, a stone name or a gem configuration.
const nrsSpecial = "!#@^"

// StoneNRS builds the network resource string of a stone: !tcp@<host>#server!<stone>.
// An empty host means localhost.
func StoneNRS(host, stone string) (string, error) {
	if host == "" {
		host = "localhost"
	}
	if err := checkNRSPart("stone host", host); err != nil {
		return "", err
	}
	if stone == "" {
		return "", fmt.Errorf("gemstone: stone NRS: the stone name is empty")
	}
	if err := checkNRSPart("stone name", stone); err != nil {
		return "", err
	}
	return "!tcp@" + host + "#server!" + stone, nil
}

// GemNRS builds the network resource string that starts a gem through a NetLDI:
// !tcp@<host>#netldi:<netldi>#task!gemnetobject[ -C <config>]. netldi is the NetLDI's name or
// port number (a port avoids name resolution). config is an optional gem configuration body,
// NAME=value;NAME=value; ... (see CheckGemConfig).
func GemNRS(host, netldi, config string) (string, error) {
	if host == "" {
		host = "localhost"
	}
	if err := checkNRSPart("gem host", host); err != nil {
		return "", err
	}
	if netldi == "" {
		return "", fmt.Errorf("gemstone: gem NRS: the NetLDI name or port is empty")
	}
	if err := checkNRSPart("NetLDI", netldi); err != nil {
		return "", err
	}
	nrs := "!tcp@" + host + "#netldi:" + netldi + "#task!gemnetobject"
	if config == "" {
		return nrs, nil
	}
	if err := CheckGemConfig(config); err != nil {
		return "", err
	}
	return nrs + " -C " + config, nil
}

// CheckGemConfig validates a gem configuration body (the part after -C on the gemnetobject
// command line): NAME=value entries separated by semicolons. GemStone silently drops
// everything after a space and gives ! # @ ^ a meaning, so those are refused here with the
// character and its 1-based position.
func CheckGemConfig(config string) error {
	for i, r := range config {
		switch {
		case r == ' ' || r == '\t' || r == '\n' || r == '\r':
			return fmt.Errorf("gemstone: gem configuration: a space at position %d (GemStone would drop everything after it)", i+1)
		case strings.ContainsRune(nrsSpecial, r):
			return fmt.Errorf("gemstone: gem configuration: character %q at position %d is not allowed (none of ! # @ ^)", r, i+1)
		case r < 0x20 || r == 0x7f:
			return fmt.Errorf("gemstone: gem configuration: control character at position %d", i+1)
		}
	}
	for _, entry := range strings.Split(config, ";") {
		if entry == "" {
			continue
		}
		name, _, ok := strings.Cut(entry, "=")
		if !ok || !isConfigName(name) {
			return fmt.Errorf("gemstone: gem configuration: entry %q is not NAME=value", entry)
		}
	}
	return nil
}

// checkGemNRS validates a gem NRS given whole (for example from configuration): the only
// space allowed is the one before a -C gem configuration, which must itself be valid.
func checkGemNRS(nrs string) error {
	head, config, hasConfig := strings.Cut(nrs, " -C ")
	if strings.ContainsAny(head, " \t\r\n") {
		return fmt.Errorf("gemstone: gem NRS: a space outside the -C gem configuration")
	}
	if hasConfig {
		return CheckGemConfig(config)
	}
	return nil
}

func checkNRSPart(what, s string) error {
	for i, r := range s {
		if r <= ' ' || r == 0x7f || strings.ContainsRune(nrsSpecial, r) {
			return fmt.Errorf("gemstone: %s: character %q at position %d is not allowed in an NRS", what, r, i+1)
		}
	}
	return nil
}

func isConfigName(name string) bool {
	if name == "" {
		return false
	}
	for _, r := range name {
		if !(r == '_' || (r >= 'A' && r <= 'Z') || (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9')) {
			return false
		}
	}
	return true
}
