package chain

import (
	"encoding/hex"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	orderengine "github.com/orderengine/orderengine"
)

func flagByName(t testing.TB, name string) Flags {
	for bit := 0; bit < 8; bit++ {
		if flagName(bit) == name {
			return 1 << bit
		}
	}
	t.Fatalf("unknown flag %q", name)
	return 0
}

func (v traitsVector) traits(t testing.TB) Traits {
	t.Helper()
	raw, err := hex.DecodeString(strings.TrimPrefix(v.AllowedSender, "0x"))
	if err != nil || len(raw) != 10 {
		t.Fatalf("%s: allowedSender %q", v.Name, v.AllowedSender)
	}
	tr := Traits{
		Deadline: v.Deadline, Nonce: v.Nonce, SlippagePpm: v.SlippagePpm, KindParamPpm: v.KindParamPpm,
		IntervalSeconds: v.IntervalSeconds, TotalExecutions: v.TotalExecutions,
	}
	copy(tr.AllowedSender[:], raw)
	for _, f := range v.Flags {
		tr.Flags |= flagByName(t, f)
	}
	return tr
}

// The vectors were packed with JavaScript BigInt shifts (gen.js), an
// implementation independent of the byte-slicing codec.
func TestTraitsVectors(t *testing.T) {
	for _, v := range loadTraitsVectors(t) {
		want := v.traits(t)
		enc, err := EncodeTraits(want)
		if err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		if enc.Dec() != v.Encoded {
			t.Errorf("%s: EncodeTraits = %s, JS %s", v.Name, enc.Dec(), v.Encoded)
		}
		word, got, err := ParseTraits(v.Encoded)
		if err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		if got != want || !word.Eq(&enc) {
			t.Errorf("%s: DecodeTraits = %v, want %v", v.Name, got, want)
		}
	}
}

func TestEncodeTraitsRejectsWideFields(t *testing.T) {
	cases := map[string]Traits{
		"makerTraits.deadline":        {Deadline: 1 << 40},
		"makerTraits.nonce":           {Nonce: 1 << 40},
		"makerTraits.slippagePpm":     {SlippagePpm: 1 << 24},
		"makerTraits.kindParamPpm":    {KindParamPpm: 1 << 24},
		"makerTraits.intervalSeconds": {IntervalSeconds: 1 << 24},
	}
	for field, tr := range cases {
		_, err := EncodeTraits(tr)
		if e := orderengine.AsError(err); err == nil || e.Code != orderengine.CodeInvalidTraits || !strings.Contains(e.Message, field) {
			t.Errorf("%s too wide: err %v, want INVALID_TRAITS naming it", field, err)
		}
	}
}

func TestClassification(t *testing.T) {
	cases := []struct {
		flags Flags
		want  Class
	}{
		{0, ClassLimit},
		{FlagAllowPartialFill | FlagUnwrapNative, ClassLimit},
		{FlagStopLoss, ClassStopLoss},
		{FlagTakeProfit | FlagUnwrapNative, ClassTakeProfit},
		{FlagDCA | FlagPriceGated | FlagShortCircuit, ClassDCA},
		{FlagTrailing, ClassTrailing},
		{FlagStopLoss | FlagTakeProfit, 0},
		{FlagDCA | FlagTrailing, 0},
		{KindFlags, 0},
	}
	for _, c := range cases {
		got, err := Traits{Flags: c.flags}.Class()
		if c.want == 0 {
			if e := orderengine.AsError(err); err == nil || e.Code != orderengine.CodeInvalidTraits || !strings.Contains(e.Message, "makerTraits.flags") {
				t.Errorf("flags %s: class %v, err %v; want INVALID_TRAITS naming makerTraits.flags", c.flags, got, err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("flags %s: class %v, %v; want %v", c.flags, got, err, c.want)
		}
	}
	for c := ClassLimit; c <= ClassTrailing; c++ {
		if p, err := ParseClass(c.String()); err != nil || p != c {
			t.Errorf("ParseClass(%q) = %v, %v", c.String(), p, err)
		}
	}
	if _, err := ParseClass("stop"); orderengine.AsError(err).Code != orderengine.CodeInvalidRequest {
		t.Errorf("ParseClass(stop): %v, want INVALID_REQUEST", err)
	}
}

// Valid traits of each class, the base of the table below.
var (
	okLimit    = Traits{Flags: FlagAllowPartialFill | FlagUnwrapNative, SlippagePpm: 5000, Nonce: 3, Deadline: 2_000_000_000}
	okStop     = Traits{Flags: FlagStopLoss, SlippagePpm: PpmOne}
	okTake     = Traits{Flags: FlagTakeProfit, SlippagePpm: 10_000}
	okDCA      = Traits{Flags: FlagDCA | FlagPriceGated | FlagShortCircuit, IntervalSeconds: 3600, TotalExecutions: 10, KindParamPpm: PpmOne}
	okTrailing = Traits{Flags: FlagTrailing, KindParamPpm: PpmOne - 1, AllowedSender: [10]byte{9: 1}}
)

func with(t Traits, f func(*Traits)) Traits { f(&t); return t }

func TestValidateTraits(t *testing.T) {
	cases := []struct {
		name  string
		class Class
		tr    Traits
		field string // "" = valid
	}{
		{"limit ok", ClassLimit, okLimit, ""},
		{"stop_loss ok", ClassStopLoss, okStop, ""},
		{"take_profit ok", ClassTakeProfit, okTake, ""},
		{"dca ok", ClassDCA, okDCA, ""},
		{"dca single leg", ClassDCA, with(okDCA, func(t *Traits) { t.TotalExecutions = 1; t.KindParamPpm = 0 }), ""},
		{"trailing ok", ClassTrailing, okTrailing, ""},
		{"mislabeled stop: limit traits as stop_loss", ClassStopLoss, okLimit, "orderType is stop_loss"},
		{"mislabeled stop: stop traits as limit", ClassLimit, okStop, "orderType is limit"},
		{"take_profit traits as stop_loss", ClassStopLoss, okTake, "orderType is stop_loss"},
		{"two kind flags", ClassStopLoss, with(okStop, func(t *Traits) { t.Flags |= FlagTakeProfit }), "makerTraits.flags"},
		{"slippage over 1e6", ClassLimit, with(okLimit, func(t *Traits) { t.SlippagePpm = PpmOne + 1 }), "makerTraits.slippagePpm"},
		{"partial fill on stop", ClassStopLoss, with(okStop, func(t *Traits) { t.Flags |= FlagAllowPartialFill }), "ALLOW_PARTIAL_FILL"},
		{"partial fill on dca", ClassDCA, with(okDCA, func(t *Traits) { t.Flags |= FlagAllowPartialFill }), "ALLOW_PARTIAL_FILL"},
		{"price gated on limit", ClassLimit, with(okLimit, func(t *Traits) { t.Flags |= FlagPriceGated }), "PRICE_GATED"},
		{"short circuit on trailing", ClassTrailing, with(okTrailing, func(t *Traits) { t.Flags |= FlagShortCircuit }), "SHORT_CIRCUIT"},
		{"interval on take_profit", ClassTakeProfit, with(okTake, func(t *Traits) { t.IntervalSeconds = 60 }), "makerTraits.intervalSeconds"},
		{"executions on limit", ClassLimit, with(okLimit, func(t *Traits) { t.TotalExecutions = 2 }), "makerTraits.totalExecutions"},
		{"kind param on stop", ClassStopLoss, with(okStop, func(t *Traits) { t.KindParamPpm = 1 }), "makerTraits.kindParamPpm"},
		{"kind param on limit", ClassLimit, with(okLimit, func(t *Traits) { t.KindParamPpm = 1 }), "makerTraits.kindParamPpm"},
		{"dca without executions", ClassDCA, with(okDCA, func(t *Traits) { t.TotalExecutions = 0 }), "makerTraits.totalExecutions"},
		{"dca without interval", ClassDCA, with(okDCA, func(t *Traits) { t.IntervalSeconds = 0 }), "makerTraits.intervalSeconds"},
		{"dca flexibility over 1e6", ClassDCA, with(okDCA, func(t *Traits) { t.KindParamPpm = PpmOne + 1 }), "makerTraits.flexibilityPpm"},
		{"trailing zero trail", ClassTrailing, with(okTrailing, func(t *Traits) { t.KindParamPpm = 0 }), "makerTraits.trailPpm"},
		{"trailing trail 1e6", ClassTrailing, with(okTrailing, func(t *Traits) { t.KindParamPpm = PpmOne }), "makerTraits.trailPpm"},
		{"trailing interval", ClassTrailing, with(okTrailing, func(t *Traits) { t.IntervalSeconds = 1 }), "makerTraits.intervalSeconds"},
	}
	for _, c := range cases {
		err := c.tr.Validate(c.class)
		if c.field == "" {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		e := orderengine.AsError(err)
		if err == nil || e.Code != orderengine.CodeInvalidTraits || !strings.Contains(e.Message, c.field) {
			t.Errorf("%s: err %v; want INVALID_TRAITS naming %q", c.name, err, c.field)
		}
	}
}

func TestCheckDeadline(t *testing.T) {
	tr := Traits{Deadline: 1000}
	if err := tr.CheckDeadline(1000); err != nil {
		t.Errorf("deadline equal to now: %v (the router accepts timestamp == deadline)", err)
	}
	if err := tr.CheckDeadline(1001); orderengine.AsError(err).Code != orderengine.CodeOrderExpired {
		t.Errorf("past deadline: %v, want ORDER_EXPIRED", err)
	}
	if err := (Traits{}).CheckDeadline(1 << 50); err != nil {
		t.Errorf("no deadline: %v", err)
	}
}

func orderWith(t testing.TB, tr Traits, f func(*Order)) Order {
	t.Helper()
	w, err := EncodeTraits(tr)
	if err != nil {
		t.Fatal(err)
	}
	o := Order{
		Maker: common.Address{1}, Receiver: common.Address{1}, TokenIn: common.Address{2}, TokenOut: common.Address{3},
		AmountIn: *uint256.NewInt(1000), TriggerPrice: *uint256.NewInt(5), MakerTraits: w, ReferralFeePpm: 2500,
	}
	if f != nil {
		f(&o)
	}
	return o
}

func TestValidateOrder(t *testing.T) {
	zeroPrice := func(o *Order) { o.TriggerPrice.Clear() }
	ungated := with(okDCA, func(t *Traits) { t.Flags &^= FlagPriceGated })
	const now = 1_900_000_000
	cases := []struct {
		name  string
		class Class
		o     Order
		code  orderengine.Code
		field string
	}{
		{"limit ok", ClassLimit, orderWith(t, okLimit, nil), "", ""},
		{"stop ok", ClassStopLoss, orderWith(t, okStop, nil), "", ""},
		{"trailing ok", ClassTrailing, orderWith(t, okTrailing, zeroPrice), "", ""},
		{"dca gated ok", ClassDCA, orderWith(t, okDCA, nil), "", ""},
		{"dca market ok", ClassDCA, orderWith(t, ungated, zeroPrice), "", ""},
		{"zero amount", ClassLimit, orderWith(t, okLimit, func(o *Order) { o.AmountIn.Clear() }), orderengine.CodeInvalidOrder, "order.amountIn"},
		{"same tokens", ClassLimit, orderWith(t, okLimit, func(o *Order) { o.TokenOut = o.TokenIn }), orderengine.CodeInvalidOrder, "order.tokenOut"},
		{"zero maker", ClassLimit, orderWith(t, okLimit, func(o *Order) { o.Maker = common.Address{} }), orderengine.CodeInvalidOrder, "order.maker"},
		{"zero receiver means the maker", ClassLimit, orderWith(t, okLimit, func(o *Order) { o.Receiver = common.Address{} }), "", ""},
		{"zero tokenIn", ClassLimit, orderWith(t, okLimit, func(o *Order) { o.TokenIn = common.Address{} }), orderengine.CodeInvalidOrder, "order.tokenIn"},
		{"referral fee over 1e6", ClassLimit, orderWith(t, okLimit, func(o *Order) { o.ReferralFeePpm = PpmOne + 1 }), orderengine.CodeInvalidOrder, "order.referralFeePpm"},
		{"limit zero price", ClassLimit, orderWith(t, okLimit, zeroPrice), orderengine.CodeInvalidTraits, "order.triggerPrice"},
		{"take profit zero price", ClassTakeProfit, orderWith(t, okTake, zeroPrice), orderengine.CodeInvalidTraits, "order.triggerPrice"},
		{"trailing with price", ClassTrailing, orderWith(t, okTrailing, nil), orderengine.CodeInvalidTraits, "order.triggerPrice"},
		{"gated dca zero price", ClassDCA, orderWith(t, okDCA, zeroPrice), orderengine.CodeInvalidTraits, "order.triggerPrice"},
		{"market dca with price", ClassDCA, orderWith(t, ungated, nil), orderengine.CodeInvalidTraits, "order.triggerPrice"},
		{"dca legs below one unit", ClassDCA, orderWith(t, okDCA, func(o *Order) { o.AmountIn.SetUint64(9) }), orderengine.CodeInvalidTraits, "makerTraits.totalExecutions"},
		{"mislabeled stop", ClassStopLoss, orderWith(t, okLimit, nil), orderengine.CodeInvalidTraits, "orderType"},
		{"expired", ClassLimit, orderWith(t, with(okLimit, func(t *Traits) { t.Deadline = now - 1 }), nil), orderengine.CodeOrderExpired, "makerTraits.deadline"},
	}
	for _, c := range cases {
		tr, err := ValidateOrder(c.class, &c.o, now)
		if c.code == "" {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			} else if tr != DecodeTraits(&c.o.MakerTraits) {
				t.Errorf("%s: returned traits %v differ from the order's", c.name, tr)
			}
			continue
		}
		e := orderengine.AsError(err)
		if err == nil || e.Code != c.code || !strings.Contains(e.Message, c.field) {
			t.Errorf("%s: err %v; want %s naming %q", c.name, err, c.code, c.field)
		}
	}
}

func ptr[T any](v T) *T { return &v }

func TestCheckKindParams(t *testing.T) {
	amount := uint256.NewInt(1000)
	keeper := common.HexToAddress("0x00000000000000000000aaaaaaaaaaaaaaaaaaaa")
	trailKeeper := with(okTrailing, func(t *Traits) { t.AllowedSender = SenderLow80(keeper) })
	dca := func(f func(*KindParams)) KindParams {
		p := KindParams{IntervalSeconds: ptr[uint64](3600), TotalExecutions: ptr[uint64](10),
			TotalAmountIn: uint256.NewInt(1000), FlexibilityPpm: ptr[uint64](PpmOne), ShortCircuit: ptr(true)}
		if f != nil {
			f(&p)
		}
		return p
	}
	cases := []struct {
		name  string
		class Class
		tr    Traits
		p     KindParams
		code  orderengine.Code
		field string
	}{
		{"dca ok", ClassDCA, okDCA, dca(nil), "", ""},
		{"dca interval differs", ClassDCA, okDCA, dca(func(p *KindParams) { p.IntervalSeconds = ptr[uint64](60) }), orderengine.CodeInvalidTraits, "intervalSeconds"},
		{"dca executions differ", ClassDCA, okDCA, dca(func(p *KindParams) { p.TotalExecutions = ptr[uint64](11) }), orderengine.CodeInvalidTraits, "totalExecutions"},
		{"dca total differs", ClassDCA, okDCA, dca(func(p *KindParams) { p.TotalAmountIn = uint256.NewInt(999) }), orderengine.CodeInvalidTraits, "totalAmountIn"},
		{"dca flexibility differs", ClassDCA, okDCA, dca(func(p *KindParams) { p.FlexibilityPpm = ptr[uint64](5) }), orderengine.CodeInvalidTraits, "flexibilityPpm"},
		{"dca flexibility absent", ClassDCA, okDCA, dca(func(p *KindParams) { p.FlexibilityPpm = nil }), orderengine.CodeInvalidTraits, "flexibilityPpm"},
		{"dca shortCircuit differs", ClassDCA, okDCA, dca(func(p *KindParams) { p.ShortCircuit = ptr(false) }), orderengine.CodeInvalidTraits, "shortCircuit"},
		{"dca missing interval", ClassDCA, okDCA, dca(func(p *KindParams) { p.IntervalSeconds = nil }), orderengine.CodeInvalidRequest, "intervalSeconds"},
		{"dca missing total", ClassDCA, okDCA, dca(func(p *KindParams) { p.TotalAmountIn = nil }), orderengine.CodeInvalidRequest, "totalAmountIn"},
		{"dca with trailPpm", ClassDCA, okDCA, dca(func(p *KindParams) { p.TrailPpm = ptr[uint64](1) }), orderengine.CodeInvalidTraits, "trailPpm"},
		{"trailing ok", ClassTrailing, trailKeeper, KindParams{TrailPpm: ptr[uint64](PpmOne - 1), DesignatedKeeper: &keeper}, "", ""},
		{"trailing any keeper", ClassTrailing, with(okTrailing, func(t *Traits) { t.AllowedSender = [10]byte{} }), KindParams{TrailPpm: ptr[uint64](PpmOne - 1)}, "", ""},
		{"trailing ppm differs", ClassTrailing, trailKeeper, KindParams{TrailPpm: ptr[uint64](1), DesignatedKeeper: &keeper}, orderengine.CodeInvalidTraits, "trailPpm"},
		{"trailing keeper differs", ClassTrailing, trailKeeper, KindParams{TrailPpm: ptr[uint64](PpmOne - 1), DesignatedKeeper: &common.Address{19: 1}}, orderengine.CodeInvalidTraits, "designatedKeeper"},
		{"trailing keeper absent", ClassTrailing, trailKeeper, KindParams{TrailPpm: ptr[uint64](PpmOne - 1)}, orderengine.CodeInvalidTraits, "designatedKeeper"},
		{"trailing missing ppm", ClassTrailing, trailKeeper, KindParams{DesignatedKeeper: &keeper}, orderengine.CodeInvalidRequest, "trailPpm"},
		{"trailing with interval", ClassTrailing, trailKeeper, KindParams{TrailPpm: ptr[uint64](PpmOne - 1), DesignatedKeeper: &keeper, IntervalSeconds: ptr[uint64](1)}, orderengine.CodeInvalidTraits, "intervalSeconds"},
		{"limit plain", ClassLimit, okLimit, KindParams{}, "", ""},
		{"limit with shortCircuit", ClassLimit, okLimit, KindParams{ShortCircuit: ptr(false)}, orderengine.CodeInvalidTraits, "shortCircuit"},
		{"stop with keeper", ClassStopLoss, okStop, KindParams{DesignatedKeeper: &keeper}, orderengine.CodeInvalidTraits, "designatedKeeper"},
	}
	for _, c := range cases {
		err := CheckKindParams(c.class, c.tr, amount, c.p)
		if c.code == "" {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		e := orderengine.AsError(err)
		if err == nil || e.Code != c.code || !strings.Contains(e.Message, c.field) {
			t.Errorf("%s: err %v; want %s naming %q", c.name, err, c.code, c.field)
		}
	}
}
