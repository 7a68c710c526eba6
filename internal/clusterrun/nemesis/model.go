package nemesis

import (
	"fmt"
	"math"
	"net/http"
	"time"

	"github.com/anishathalye/porcupine"
	"github.com/ethereum/go-ethereum/common"
)

// An order's life as the linearizability check models it: absent, then
// pending once a submit took effect, then cancelled once a cancel did.
// The workload's orders rest (their trigger is far from the market), so
// nothing else moves them.
const (
	stateAbsent = iota
	statePending
	stateCancelled
)

// porcInput is an operation of the model: a submit or a cancel.
type porcInput struct {
	kind string
	hash common.Hash
}

// The outcomes of an operation as the model reads its answer.
const (
	outOK             = "ok"              // 201 to a submit, 200 to a cancel
	outExists         = "exists"          // 409 ALREADY_EXISTS
	outNotFound       = "not-found"       // 404
	outNotCancellable = "not-cancellable" // 409 NOT_CANCELLABLE
	outUnknown        = "unknown"         // no answer, or one saying the outcome is unknown
)

// outcome reads an answer of the model's operations; ok is false for an
// answer saying nothing happened (a refusal before any write: 400, 401,
// 429, a 503 saying nothing was stored), which leaves the operation out.
func outcome(o Op) (string, bool) {
	switch {
	case o.Kind == OpSubmit && o.Status == http.StatusCreated, o.Kind == OpCancel && o.Status == http.StatusOK:
		return outOK, true
	case o.Status == http.StatusConflict && o.Code == "ALREADY_EXISTS":
		return outExists, true
	case o.Status == http.StatusConflict && o.Code == "NOT_CANCELLABLE":
		return outNotCancellable, true
	case o.Status == http.StatusNotFound:
		return outNotFound, true
	case o.NothingStored():
		return "", false
	case o.Unknown():
		return outUnknown, true
	}
	return "", false
}

// orderModel is the nondeterministic model of one order's submits and
// cancels (unknown outcomes may or may not have happened), partitioned by
// order.
var orderModel = porcupine.NondeterministicModel{
	Partition: func(history []porcupine.Operation) [][]porcupine.Operation {
		by := map[common.Hash][]porcupine.Operation{}
		var order []common.Hash
		for _, op := range history {
			h := op.Input.(porcInput).hash
			if _, ok := by[h]; !ok {
				order = append(order, h)
			}
			by[h] = append(by[h], op)
		}
		out := make([][]porcupine.Operation, 0, len(order))
		for _, h := range order {
			out = append(out, by[h])
		}
		return out
	},
	Init: func() []any { return []any{stateAbsent} },
	Step: func(state, input, output any) []any {
		s, in, out := state.(int), input.(porcInput), output.(string)
		switch in.kind {
		case OpSubmit:
			switch {
			case out == outOK && s == stateAbsent:
				return []any{statePending}
			case out == outExists && s != stateAbsent:
				return []any{s}
			case out == outUnknown && s == stateAbsent:
				return []any{stateAbsent, statePending}
			case out == outUnknown:
				return []any{s}
			}
		case OpCancel:
			switch {
			case out == outOK && s == statePending:
				return []any{stateCancelled}
			case out == outNotCancellable && s == stateCancelled:
				return []any{s}
			case out == outNotFound && s == stateAbsent:
				return []any{s}
			case out == outUnknown && s == statePending:
				return []any{statePending, stateCancelled}
			case out == outUnknown:
				return []any{s}
			}
		}
		return nil
	},
	DescribeOperation: func(input, output any) string {
		in := input.(porcInput)
		return fmt.Sprintf("%s(%s) → %s", in.kind, short(in.hash), output)
	},
	DescribeState: func(state any) string {
		return [...]string{"absent", "pending", "cancelled"}[state.(int)]
	},
}

// Linearizable checks the submits and cancels of the history against the
// order model with Porcupine, within timeout. An operation whose outcome
// is unknown may take effect at any time after it was sent (its return
// is the end of time, as etcd's robustness tests do).
func Linearizable(ops []Op, timeout time.Duration) (porcupine.CheckResult, int) {
	var history []porcupine.Operation
	t0 := time.Time{}
	for _, o := range ops {
		if t0.IsZero() || o.Invoke.Before(t0) {
			t0 = o.Invoke
		}
	}
	for _, o := range ops {
		if o.Kind != OpSubmit && o.Kind != OpCancel {
			continue
		}
		out, ok := outcome(o)
		if !ok {
			continue
		}
		ret := o.Complete.Sub(t0).Nanoseconds()
		if out == outUnknown {
			ret = math.MaxInt64
		}
		history = append(history, porcupine.Operation{ClientId: o.Node, Input: porcInput{kind: o.Kind, hash: o.Hash},
			Call: o.Invoke.Sub(t0).Nanoseconds(), Output: out, Return: ret})
	}
	return porcupine.CheckOperationsTimeout(orderModel.ToModel(), history, timeout), len(history)
}
