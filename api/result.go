package api

// Success is the body {"success": true} of an operation that has nothing
// else to say (DELETE /v1/webhooks/{id}; the OpenAPI SuccessResponse).
type Success struct {
	Success bool `json:"success"`
}

// WebhookStats are the webhook counters since the process started
// (Disabled is the current number of disabled endpoints): the webhook
// manager counts them, GET /v1/stats shows them under "webhooks".
type WebhookStats struct {
	// Attempted counts delivery attempts (first tries and retries).
	Attempted uint64 `json:"deliveriesAttempted"`
	// Succeeded counts deliveries answered 2xx.
	Succeeded uint64 `json:"deliveriesSucceeded"`
	// Failed counts attempts that failed (non-2xx, timeout, connection error).
	Failed uint64 `json:"deliveriesFailed"`
	// Retried counts attempts that were retries.
	Retried uint64 `json:"deliveriesRetried"`
	// Abandoned counts deliveries that failed their last scheduled attempt.
	Abandoned uint64 `json:"deliveriesAbandoned"`
	// DisabledTotal counts endpoints disabled by the failure horizon.
	DisabledTotal uint64 `json:"endpointsDisabledTotal"`
	// Disabled is the number of endpoints disabled now.
	Disabled int64 `json:"endpointsDisabled"`
}
