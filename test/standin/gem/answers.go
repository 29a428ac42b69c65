package main

import "github.com/gemstone-mcp/mcp-gemstone/test/standin/gemproto"

func stringResult(s []byte) gemproto.Answer {
	return gemproto.Answer{Class: gemproto.OopClassString, Bytes: s}
}

func specialResult(oop uint64) gemproto.Answer { return gemproto.Answer{Special: true, Oop: oop} }

func boolResult(b bool) gemproto.Answer {
	if b {
		return specialResult(gemproto.OopTrue)
	}
	return specialResult(gemproto.OopFalse)
}

func smallIntegerResult(v int64) gemproto.Answer { return specialResult(uint64(v)<<3 | 2) }

// errorResult is a GemStone error whose text says where it came from.
func errorResult(number uint32, message string) gemproto.Answer {
	return gemproto.Answer{Err: &gemproto.GemError{Number: number, Message: message + " (GCI TEST STAND-IN, not GemStone)"}}
}
