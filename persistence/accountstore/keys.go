package accountstore

import "github.com/orderengine/orderengine/persistence"

// The keys of the account records (persistence/keys.go has the whole key
// space): a/<accountID>, k/<keyID>, h/<sha256(key)>,
// x/<accountID>/<keyID>; wallets.go has y/, sessions.go z/.

func accountKey(accountID string) []byte { return []byte(persistence.PrefixAccount + accountID) }

func keyRecordKey(keyID string) []byte { return []byte(persistence.PrefixKey + keyID) }

func keyHashKey(hash [32]byte) []byte {
	out := make([]byte, 0, len(persistence.PrefixKeyHash)+len(hash))
	out = append(out, persistence.PrefixKeyHash...)
	return append(out, hash[:]...)
}

func accountKeyIndexPrefix(accountID string) []byte {
	return []byte(persistence.PrefixAccountKey + accountID + "/")
}

func accountKeyIndexKey(accountID, keyID string) []byte {
	return append(accountKeyIndexPrefix(accountID), keyID...)
}
