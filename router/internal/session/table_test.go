package session

import (
	"sync"
	"testing"
)

func TestTableCapIsExactUnderContention(t *testing.T) {
	tb := NewTable(5, Hooks{})
	var mu sync.Mutex
	got := 0
	var wg sync.WaitGroup
	for range 100 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := tb.Reserve(); err == nil {
				mu.Lock()
				got++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if got != 5 || tb.Used() != 5 {
		t.Fatalf("%d reserved under a cap of 5", got)
	}
}

func TestNewIDIs128BitsOfHexAfterThePrefix(t *testing.T) {
	id, err := NewID("r1-")
	if err != nil || len(id) != 3+32 || id[:3] != "r1-" {
		t.Fatalf("id %q %v", id, err)
	}
	other, _ := NewID("r1-")
	if other == id {
		t.Fatal("two ids alike")
	}
}
