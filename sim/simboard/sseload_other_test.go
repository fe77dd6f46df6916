//go:build !linux

package simboard_test

import (
	"bufio"
	"bytes"
	"context"
	"net"
	"net/http/httputil"
	"strconv"
	"sync/atomic"
	"time"
)

// sseLoad reads each event stream on a goroutine of its own (the Linux
// version uses epoll).
type sseLoad struct {
	arr   *fanoutArrivals
	ended chan<- int
	read  atomic.Int64 // not counted here
}

func newSSELoad(arr *fanoutArrivals, ended chan<- int) (*sseLoad, error) {
	return &sseLoad{arr: arr, ended: ended}, nil
}

func (l *sseLoad) add(id int, c net.Conn, br *bufio.Reader) error {
	go func() {
		readViewSeqs(bufio.NewReaderSize(httputil.NewChunkedReader(br), 64<<10), id, l.arr)
		select {
		case l.ended <- id:
		default:
		}
	}()
	return nil
}

func (l *sseLoad) run(ctx context.Context) { <-ctx.Done() }

func (l *sseLoad) close() {}

// readViewSeqs reads an event stream's body and records the seq of every
// view or patch (reading only the start of each data line) as it arrives.
func readViewSeqs(r *bufio.Reader, viewer int, a *fanoutArrivals) {
	key := []byte(`"seq":`)
	for {
		line, err := r.ReadSlice('\n')
		if err != nil && err != bufio.ErrBufferFull {
			return
		}
		full := err == bufio.ErrBufferFull
		if rest, ok := bytes.CutPrefix(line, []byte("data: {")); ok {
			if i := bytes.Index(rest[:min(len(rest), 64)], key); i >= 0 {
				rest = rest[i+len(key):]
				if end := bytes.IndexByte(rest, ','); end > 0 {
					seq, _ := strconv.ParseUint(string(rest[:end]), 10, 64)
					a.arrived(viewer, seq, time.Now())
				}
			}
		}
		for full {
			_, err = r.ReadSlice('\n')
			if err != nil && err != bufio.ErrBufferFull {
				return
			}
			full = err == bufio.ErrBufferFull
		}
	}
}
