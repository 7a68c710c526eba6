package webhook

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
)

// secretPrefix starts every signing secret.
const secretPrefix = "whsec_"

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// newSecret returns a fresh signing secret: "whsec_" and 32 base62
// characters (190 bits).
func newSecret() (string, error) { return randomID(secretPrefix, 32) }

// sealer encrypts signing secrets at rest with AES-256-GCM. The secret must
// stay recoverable (every attempt signs with it), so it is encrypted, not
// hashed; the key lives outside the store, in a file of its own, or, in a
// cluster, with the replicated account data: that key is fetched (or made,
// once for the cluster) when a secret is first sealed or opened, so a
// cluster that never held a webhook has written nothing at its start and
// a backup can be restored into it.
type sealer struct {
	aead atomic.Pointer[cipher.AEAD]
	mu   sync.Mutex
	key  func() ([]byte, error) // the shared key, until it is loaded
}

// newSharedSealer returns a sealer whose key key returns at first use; a
// failed fetch is tried again at the next use.
func newSharedSealer(key func() ([]byte, error)) *sealer { return &sealer{key: key} }

// cipher returns the sealer's AEAD, loading the shared key first if need be.
func (s *sealer) cipher() (cipher.AEAD, error) {
	if a := s.aead.Load(); a != nil {
		return *a, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if a := s.aead.Load(); a != nil {
		return *a, nil
	}
	key, err := s.key()
	if err != nil {
		return nil, fmt.Errorf("webhook: the cluster's secret key: %w", err)
	}
	a, err := newAEAD(key)
	if err != nil {
		return nil, err
	}
	s.aead.Store(&a)
	return a, nil
}

// loadSealer reads the 32-byte key at path, creating it (mode 0600) when
// absent.
func loadSealer(path string) (*sealer, error) {
	key, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		key = make([]byte, 32)
		if _, err := rand.Read(key); err != nil {
			return nil, fmt.Errorf("webhook: secret key: %w", err)
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, fmt.Errorf("webhook: secret key: %w", err)
		}
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return nil, fmt.Errorf("webhook: secret key: %w", err)
		}
		_, werr := f.Write(key)
		serr := f.Sync()
		if err := errors.Join(werr, serr, f.Close()); err != nil {
			return nil, fmt.Errorf("webhook: secret key: %w", err)
		}
	} else if err != nil {
		return nil, fmt.Errorf("webhook: secret key: %w", err)
	}
	if len(key) != 32 {
		return nil, fmt.Errorf("webhook: secret key %s must hold 32 bytes, has %d", path, len(key))
	}
	return newSealer(key)
}

// newSealer returns the sealer of a 32-byte key.
func newSealer(key []byte) (*sealer, error) {
	a, err := newAEAD(key)
	if err != nil {
		return nil, err
	}
	s := &sealer{}
	s.aead.Store(&a)
	return s, nil
}

// newAEAD is AES-256-GCM with a 32-byte key.
func newAEAD(key []byte) (cipher.AEAD, error) {
	if len(key) != 32 {
		return nil, fmt.Errorf("webhook: secret key must hold 32 bytes, has %d", len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("webhook: secret key: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("webhook: secret key: %w", err)
	}
	return aead, nil
}

// seal encrypts secret; endpointID is bound as additional data so a sealed
// secret cannot be moved to another endpoint's record.
func (s *sealer) seal(endpointID, secret string) ([]byte, error) {
	aead, err := s.cipher()
	if err != nil {
		return nil, err
	}
	nonce := make([]byte, aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return nil, fmt.Errorf("webhook: seal: %w", err)
	}
	return aead.Seal(nonce, nonce, []byte(secret), []byte(endpointID)), nil
}

// open decrypts a sealed secret of endpointID.
func (s *sealer) open(endpointID string, sealed []byte) (string, error) {
	aead, err := s.cipher()
	if err != nil {
		return "", err
	}
	n := aead.NonceSize()
	if len(sealed) < n {
		return "", errors.New("webhook: sealed secret too short")
	}
	plain, err := aead.Open(nil, sealed[:n], sealed[n:], []byte(endpointID))
	if err != nil {
		return "", errors.New("webhook: cannot decrypt the signing secret (wrong secret key file?)")
	}
	return string(plain), nil
}
