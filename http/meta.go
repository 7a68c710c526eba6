package http

import (
	"encoding/json"
	"fmt"

	"github.com/orderengine/orderengine/config"

	"github.com/gofiber/fiber/v2"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/internal/buildinfo"
)

// The signing domain and EIP-712 types of contract.md section 1.
const (
	domainName    = "ServiceRouter"
	domainVersion = "7"
	// OrderTypeString is the v7.1 Order type, with triggerAmountOut.
	OrderTypeString = "Order(uint256 salt,address maker,address receiver,address tokenIn,address tokenOut,uint256 amountIn,uint256 triggerPrice,uint256 triggerAmountOut,uint256 makerTraits,address referrer,uint32 referralFeePpm)"
	// CancelTypeString is the off-chain cancel message type.
	CancelTypeString = "OrderCancel(bytes32 orderHash)"
	domainTypeString = "EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"
)

type typedField struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

type traitField struct {
	Name        string `json:"name"`
	Bit         int    `json:"bit"`
	Width       int    `json:"width"`
	Description string `json:"description"`
}

type traitFlag struct {
	Name        string `json:"name"`
	Bit         int    `json:"bit"`
	Description string `json:"description"`
}

// makerTraitsLayout is contract.md section 2.
var makerTraitsLayout = struct {
	Encoding string       `json:"encoding"`
	Fields   []traitField `json:"fields"`
	Flags    []traitFlag  `json:"flags"`
}{
	Encoding: "uint256 sent as a decimal string; bit 0 is the least significant",
	Fields: []traitField{
		{"allowedSender", 0, 80, "low 80 bits of the only keeper allowed to execute; 0 = any keeper"},
		{"deadline", 80, 40, "unix seconds after which the order expires; 0 = none"},
		{"nonce", 120, 40, "maker nonce; invalidateNonce(nonce) cancels every order carrying it"},
		{"slippagePpm", 160, 24, "execution slippage tolerance, at most 1000000"},
		{"kindParamPpm", 184, 24, "trailing: trailPpm; dca: flexibilityPpm; otherwise 0"},
		{"intervalSeconds", 208, 24, "dca only"},
		{"totalExecutions", 232, 16, "dca only"},
		{"flags", 248, 8, "see flags"},
	},
	Flags: []traitFlag{
		{"STOP_LOSS", 255, "execute when the oracle price falls to or below triggerPrice"},
		{"TAKE_PROFIT", 254, "execute when the oracle price rises to or above triggerPrice"},
		{"TRAILING", 253, "execute when the price falls trailPpm below its peak since activation"},
		{"DCA", 252, "repeated executions of amountIn / totalExecutions"},
		{"PRICE_GATED", 251, "dca only: a leg executes only at or above triggerPrice"},
		{"ALLOW_PARTIAL_FILL", 250, "limit only: keepers may fill part of amountIn"},
		{"SHORT_CIRCUIT", 249, "dca only: stop once totalAmountIn is spent"},
		{"UNWRAP_NATIVE", 248, "deliver the native coin when tokenOut is the wrapped native token"},
	},
}

// OrderTypes are the supported order types.
var OrderTypes = []string{"limit", "stop_loss", "take_profit", "dca", "trailing"}

func addressOrNil(a string) *string {
	if a == "" {
		return nil
	}
	return &a
}

// buildConfigJSON renders the GET /v1/config body once; it is served from
// bytes.
func buildConfigJSON(chain config.ChainConfig, limits config.LimitsConfig) []byte {
	type tier struct {
		Quote int `json:"quote"`
		Read  int `json:"read"`
		Order int `json:"order"`
	}
	body := map[string]any{
		"chainId":       chain.ChainID,
		"routerVersion": "7.1",
		"router":        addressOrNil(chain.Router),
		"feeVault":      addressOrNil(chain.FeeVault),
		"oracle":        addressOrNil(chain.Oracle),
		// rpcUrl is only ever the explicitly public URL: a private node URL
		// often carries a provider key and is never served.
		"rpcUrl": stringOrNil(chain.PublicRPCURL),
		"domain": map[string]any{
			"name": domainName, "version": domainVersion, "chainId": chain.ChainID,
			"verifyingContract": addressOrNil(chain.Router),
		},
		"eip712": map[string]any{
			"domainType":  domainTypeString,
			"order":       OrderTypeString,
			"orderCancel": CancelTypeString,
			"types": map[string][]typedField{
				"EIP712Domain": {{"name", "string"}, {"version", "string"}, {"chainId", "uint256"}, {"verifyingContract", "address"}},
				"Order": {{"salt", "uint256"}, {"maker", "address"}, {"receiver", "address"}, {"tokenIn", "address"},
					{"tokenOut", "address"}, {"amountIn", "uint256"}, {"triggerPrice", "uint256"}, {"triggerAmountOut", "uint256"},
					{"makerTraits", "uint256"}, {"referrer", "address"}, {"referralFeePpm", "uint32"}},
				"OrderCancel": {{"orderHash", "bytes32"}},
			},
		},
		"makerTraits": makerTraitsLayout,
		"orderTypes":  OrderTypes,
		"statuses":    []string{"pending", "active", "filled", "cancelled", "expired", "failed"},
		"rateLimits": map[string]any{
			"windowSeconds": int(limits.Window.Seconds()),
			"tiers": map[string]tier{
				"free":    {limits.Free.Quote, limits.Free.Read, limits.Free.Order},
				"builder": {limits.Builder.Quote, limits.Builder.Read, limits.Builder.Order},
			},
			"enterprise":         "set per account",
			"makerSubmits":       limits.MakerSubmits,
			"makerWindowSeconds": int(limits.MakerWindow.Seconds()),
			"makerOpenOrders":    limits.MakerOpenOrders,
			"keylessPerAddress":  limits.Free.Read,
		},
		"build": buildinfo.Get(),
	}
	out, err := json.Marshal(body)
	if err != nil {
		panic(fmt.Sprintf("http: config document: %v", err)) // only plain data above
	}
	return out
}

// stringOrNil serves an empty string as JSON null.
func stringOrNil(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func errorsDocument() ([]byte, error) {
	return json.Marshal(map[string]any{"errors": orderengine.Catalog()})
}

func sendJSONBytes(c *fiber.Ctx, b []byte) error {
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
	return c.Send(b)
}

func (s *Server) serveConfig(c *fiber.Ctx) error { return sendJSONBytes(c, s.config) }

func (s *Server) serveErrors(c *fiber.Ctx) error { return sendJSONBytes(c, s.errorsJSON) }

func (s *Server) serveOpenAPI(c *fiber.Ctx) error { return sendJSONBytes(c, s.openapi) }
