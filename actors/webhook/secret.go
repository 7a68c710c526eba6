package webhook

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// secretPrefix starts every signing secret.
const secretPrefix = "whsec_"

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// newSecret returns a fresh signing secret: "whsec_" and 32 base62
// characters (190 bits).
func newSecret() (string, error) { return randomID(secretPrefix, 32) }

// sealer encrypts signing secrets at rest with AES-256-GCM. The secret must
// stay recoverable (every attempt signs with it), so it is encrypted, not
// hashed; the key lives outside the store, in a file of its own.
type sealer struct{ aead cipher.AEAD }

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
	return &sealer{aead: aead}, nil
}

// seal encrypts secret; endpointID is bound as additional data so a sealed
// secret cannot be moved to another endpoint's record.
func (s *sealer) seal(endpointID, secret string) ([]byte, error) {
	nonce := make([]byte, s.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return nil, fmt.Errorf("webhook: seal: %w", err)
	}
	return s.aead.Seal(nonce, nonce, []byte(secret), []byte(endpointID)), nil
}

// open decrypts a sealed secret of endpointID.
func (s *sealer) open(endpointID string, sealed []byte) (string, error) {
	n := s.aead.NonceSize()
	if len(sealed) < n {
		return "", errors.New("webhook: sealed secret too short")
	}
	plain, err := s.aead.Open(nil, sealed[:n], sealed[n:], []byte(endpointID))
	if err != nil {
		return "", errors.New("webhook: cannot decrypt the signing secret (wrong secret key file?)")
	}
	return string(plain), nil
}
