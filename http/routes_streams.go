package http

import (
	"context"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/api"
)

// pLastEventID is the header an EventSource client sends when it
// reconnects.
var pLastEventID = ParamDoc{Name: "Last-Event-ID", In: "header", Schema: "LastEventID",
	Description: "The id of the last event received, which an EventSource sends by itself when it reconnects: the stream resumes after it. At most 64 characters (longer is 400 INVALID_REQUEST)."}

// streamRoutes are the Server-Sent Events routes (sse.go). They come
// before the other routes: /v1/orders/stream must be matched before
// /v1/orders/{hash}.
func streamRoutes() []Route {
	return []Route{
		{Method: "GET", Path: "/v1/keeper/stream", Access: ReadBucket, Status: 200, stream: streamKeeper,
			Doc: OpDoc{ID: "keeperStream", Tag: "keeper", Summary: "Server-Sent Events: the executable set, then per block the orders that became executable and those that stopped.", Response: "KeeperStreamEvent",
				Params: []ParamDoc{
					q("keeper", "Address", "Keeper address (0x-prefixed, lowercase or EIP-55): the only caller shown orders designated to it (makerTraits.allowedSender), as for GET /v1/keeper/executable. Absent: orders designated to a keeper are left out.", false),
					q("pair", "Pair", "Only this pair: <tokenIn address>-<tokenOut address>, lowercase or checksummed; a malformed pair or the same token twice is INVALID_REQUEST.", false),
					pLastEventID},
				Errors: []orderengine.Code{orderengine.CodeInvalidRequest, orderengine.CodeLimitReached, orderengine.CodeServiceUnavailable}}},
		{Method: "GET", Path: "/v1/orders/stream", Access: ReadBucket, Auth: AuthKeyOrSession, Status: 200, stream: streamOrders,
			Doc: OpDoc{ID: "orderStream", Tag: "orders", Summary: "Server-Sent Events: the account's order events, with the names, bodies and ids of its webhook deliveries.", Response: "OrderStreamEvent",
				Params: []ParamDoc{pLastEventID},
				Errors: []orderengine.Code{orderengine.CodeInvalidRequest, orderengine.CodeLimitReached, orderengine.CodeServiceUnavailable}}},
	}
}

func streamKeeper(_ context.Context, s *Services, in *input) (api.Stream, error) {
	id, err := in.lastEventID()
	if err != nil {
		return nil, err
	}
	if s.KeeperStream == nil {
		return nil, errUnimplemented
	}
	return s.KeeperStream.Subscribe(api.KeeperStreamRequest{Keeper: in.query("keeper"), Pair: in.query("pair"), LastEventID: id})
}

func streamOrders(ctx context.Context, s *Services, in *input) (api.Stream, error) {
	id, err := in.lastEventID()
	if err != nil {
		return nil, err
	}
	if s.OrderStream == nil {
		return nil, errUnimplemented
	}
	return s.OrderStream.Subscribe(ctx, in.caller, api.OrderStreamRequest{LastEventID: id})
}
