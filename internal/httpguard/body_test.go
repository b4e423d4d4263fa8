package httpguard

import "testing"

func TestReadMessage(t *testing.T) {
	for body, want := range map[string]message{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`:                                  {request: true},
		`{"jsonrpc":"2.0","id":"a","method":"ping"}`:                                      {request: true},
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`:                      {request: true, initialize: true},
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`:                          {},
		`{"jsonrpc":"2.0","id":null,"method":"x"}`:                                        {},
		`{"jsonrpc":"2.0","id":7,"result":{"action":"accept"}}`:                           {},
		`{"jsonrpc":"2.0","id":7,"error":{"code":-1,"message":"rejected"}}`:               {},
		`[{"jsonrpc":"2.0","id":7,"result":{}},{"jsonrpc":"2.0","id":8,"method":"ping"}]`: {request: true},
		`[{"jsonrpc":"2.0","id":7,"result":{}}]`:                                          {},
		`[{"jsonrpc":"2.0","id":1,"method":"initialize"}]`:                                {request: true},
		`not json`: {request: true},
		``:         {request: true},
	} {
		if got := readMessage([]byte(body)); got != want {
			t.Errorf("readMessage(%s) = %+v, want %+v", body, got, want)
		}
	}
}
