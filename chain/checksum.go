package chain

import (
	"sync"

	"github.com/ethereum/go-ethereum/common"
)

// Checksum returns a's EIP-55 form, as common.Address.Hex does, from a
// bounded cache: the submit path renders the same few addresses (tokens,
// vaults, a maker's own) on every order, and each rendering is a keccak.
func Checksum(a common.Address) string {
	sh := &checksums.shards[a[19]%checksumShards]
	sh.mu.Lock()
	s, ok := sh.m[a]
	sh.mu.Unlock()
	if ok {
		return s
	}
	s = a.Hex()
	sh.mu.Lock()
	if len(sh.m) >= checksumShardCap {
		clear(sh.m) // bounded: start over rather than track recency
	}
	sh.m[a] = s
	sh.mu.Unlock()
	return s
}

const (
	checksumShards   = 16
	checksumShardCap = 4096
)

var checksums = func() *checksumCache {
	c := &checksumCache{}
	for i := range c.shards {
		c.shards[i].m = make(map[common.Address]string)
	}
	return c
}()

type checksumCache struct {
	shards [checksumShards]struct {
		mu sync.Mutex
		m  map[common.Address]string
	}
}
