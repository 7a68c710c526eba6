package persistence

// MarshalOrderRecord encodes rec with the order record codec
// (order_codec.go), exactly as the store keeps it: the form a record takes
// between the members of a cluster.
func MarshalOrderRecord(rec *OrderRecord) []byte { return appendOrder(nil, rec) }

// UnmarshalOrderRecord decodes a record MarshalOrderRecord encoded.
func UnmarshalOrderRecord(b []byte) (*OrderRecord, error) {
	rec := &OrderRecord{}
	if err := decodeOrder(b, rec); err != nil {
		return nil, err
	}
	return rec, nil
}
