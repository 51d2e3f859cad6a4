package catalog

import "hash/maphash"

// keyIndex finds offers by key in a slice without a map of strings: at a
// million offers a map[string]int costs more in cache misses than all the
// parsing around it. It maps a 64-bit hash of the key to the first offer's
// position; a different key with the same hash (vanishingly rare, but
// possible) goes to a small string-keyed spill map, so lookups are exact.
type keyIndex struct {
	seed  maphash.Seed
	first map[uint64]int32
	spill map[string]int32
	dups  bool // set listed some key twice
}

func newKeyIndex(n int) *keyIndex {
	return &keyIndex{seed: maphash.MakeSeed(), first: make(map[uint64]int32, n)}
}

// keyed is what the index reads keys from: the slice or table it was
// built over.
type keyed interface{ Key(i int) string }

// get returns the position of key in offers, the rows the index was
// built over.
func (x *keyIndex) get(offers keyed, key string) (int, bool) {
	i, ok := x.first[maphash.String(x.seed, key)]
	if !ok {
		return 0, false
	}
	if offers.Key(int(i)) == key {
		return int(i), true
	}
	j, ok := x.spill[key]
	return int(j), ok
}

// set records that key is at position i, replacing an earlier position of
// the same key.
func (x *keyIndex) set(offers keyed, key string, i int) {
	h := maphash.String(x.seed, key)
	j, ok := x.first[h]
	if !ok || offers.Key(int(j)) == key {
		x.dups = x.dups || ok
		x.first[h] = int32(i)
		return
	}
	if _, ok := x.spill[key]; ok {
		x.dups = true
	}
	if x.spill == nil {
		x.spill = map[string]int32{}
	}
	x.spill[key] = int32(i)
}
