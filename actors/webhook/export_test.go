package webhook

// SetHookBeforeConsume sets (nil: clears) the fan-out's hook between the
// endpoints' answers and the outbox cursor's move.
func SetHookBeforeConsume(fn func(account string)) { testHookBeforeConsume = fn }

// LiveEndpointActors returns the number of live endpoint actors.
func LiveEndpointActors(m *Manager) int { return m.endpoints.Live() }
