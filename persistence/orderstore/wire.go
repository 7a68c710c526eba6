package orderstore

// MarshalRecord encodes rec with the order record codec (codec.go), exactly
// as the store keeps it: the form a record takes between the members of a
// cluster.
func MarshalRecord(rec *Record) []byte { return appendOrder(nil, rec) }

// UnmarshalRecord decodes a record MarshalRecord encoded.
func UnmarshalRecord(b []byte) (*Record, error) {
	rec := &Record{}
	if err := decodeOrder(b, rec); err != nil {
		return nil, err
	}
	return rec, nil
}
