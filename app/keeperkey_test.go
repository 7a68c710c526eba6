package app

import (
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/crypto"
)

// lifecycle.keeperKeyFile: a hex key with 0x and surrounding space is
// read; a missing file and a file that is not a key are errors naming the
// setting, never quoting the content.
func TestReadKeeperKey(t *testing.T) {
	dir := t.TempDir()
	key, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "good")
	if err := os.WriteFile(good, []byte("  0x"+hex.EncodeToString(crypto.FromECDSA(key))+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := readKeeperKey(good)
	if err != nil || crypto.PubkeyToAddress(got.PublicKey) != crypto.PubkeyToAddress(key.PublicKey) {
		t.Fatalf("good key file: %v", err)
	}
	secret := "not-a-key-but-a-secret-value"
	bad := filepath.Join(dir, "bad")
	if err := os.WriteFile(bad, []byte(secret), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{bad, filepath.Join(dir, "missing")} {
		_, err := readKeeperKey(path)
		if err == nil || !strings.Contains(err.Error(), "lifecycle.keeperKeyFile") || strings.Contains(err.Error(), secret) {
			t.Fatalf("%s: %v", path, err)
		}
	}
}
