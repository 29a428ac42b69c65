package gsmodel

import (
	"fmt"
	"runtime/metrics"
)

// The model's resource limits. A gem that exhausts its memory ends alone; the model serves every
// session from one process, so a runaway resource in one execution (an endless file, a huge
// new:, a collection that grows forever) must end that execution with an error that names the
// limit, and never the process. None of these limits is GemStone's: each is the model's own,
// and an execution that reaches one fails, as a refusal does.

const resourceLimitPrefix = "the model's resource limit: "

// maxSlots bounds the indexed slots of one object (256 MiB of pointers).
const maxSlots = 1 << 24

// defaultMemoryLimit bounds the live heap of the model's process.
const defaultMemoryLimit = 1 << 30

// memoryCheckEvery is how many sends pass between two reads of the live heap.
const memoryCheckEvery = 1 << 16

func (s *Session) resourceLimit(what string) Value {
	return s.signalNew("Error", 1, resourceLimitPrefix+what, nil)
}

// checkSlots ends the execution when an object would hold more than maxSlots slots, before the
// process tries to allocate them.
func (s *Session) checkSlots(n int) {
	if n > maxSlots {
		s.resourceLimit(fmt.Sprintf("an object of %d slots (the model makes at most %d)", n, maxSlots))
	}
}

// checkMemory reads the live heap every memoryCheckEvery sends and ends the execution that finds
// it above the image's limit.
func (s *Session) checkMemory() {
	s.memTick++
	if s.memTick%memoryCheckEvery != 0 {
		return
	}
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 {
		return
	}
	if live := sample[0].Value.Uint64(); live > uint64(s.img.memoryLimit) {
		s.resourceLimit(fmt.Sprintf("%d MiB of live objects (the model's limit is %d MiB)", live>>20, s.img.memoryLimit>>20))
	}
}

// SetMemoryLimit sets the live heap, in bytes, past which an execution is ended.
func (img *Image) SetMemoryLimit(bytes int64) { img.memoryLimit = bytes }
