package simboard_test

import (
	"bufio"
	"bytes"
	"context"
	"net"
	"os"
	"sync/atomic"
	"syscall"
	"time"
)

// sseLoad reads many event streams on one goroutine with epoll: a read
// per stream per event and no goroutine wake-up per stream, so that the
// fan-out's load client takes little of the CPU it measures. Each stream
// is HTTP/1.1 chunked; it records when each view's or patch's seq arrives.
type sseLoad struct {
	epfd    int
	viewers []*sseViewer
	arr     *fanoutArrivals
	ended   chan<- int
	read    atomic.Int64 // bytes read, headers excluded
}

type sseViewer struct {
	id   int
	fd   int
	file *os.File // fd's owner: kept, so that the collector does not close fd
	// The chunked decoder: state 0 reads a chunk's size line, 1 its data
	// (rem bytes left), 2 the CRLF after it.
	state, rem int
	ext        bool // in a chunk extension, skipped to the line's end
	// head is the start of the current line of the body.
	head [64]byte
	hn   int
	done bool
}

func newSSELoad(arr *fanoutArrivals, ended chan<- int) (*sseLoad, error) {
	fd, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
	if err != nil {
		return nil, err
	}
	return &sseLoad{epfd: fd, arr: arr, ended: ended}, nil
}

// add takes over a stream whose headers were read from br (and closes c):
// what br holds already is decoded at once, the rest as it comes.
func (l *sseLoad) add(id int, c net.Conn, br *bufio.Reader) error {
	// A copy of the descriptor, and the connection closed: Go's own
	// poller then no longer wakes for the stream too.
	f, err := c.(*net.TCPConn).File()
	if err != nil {
		return err
	}
	c.Close()
	v := &sseViewer{id: id, file: f, fd: int(f.Fd())}
	if err := syscall.SetNonblock(v.fd, true); err != nil { // Fd made it blocking
		f.Close()
		return err
	}
	if n := br.Buffered(); n > 0 {
		b, _ := br.Peek(n)
		l.feed(v, b, time.Now())
	}
	l.viewers = append(l.viewers, v)
	ev := syscall.EpollEvent{Events: syscall.EPOLLIN | syscall.EPOLLRDHUP, Fd: int32(len(l.viewers) - 1)}
	return syscall.EpollCtl(l.epfd, syscall.EPOLL_CTL_ADD, v.fd, &ev)
}

// close closes every stream; after run has returned.
func (l *sseLoad) close() {
	for _, v := range l.viewers {
		v.file.Close()
	}
}

// run reads until ctx ends. Level-triggered: one read per ready stream
// per wake; what is left wakes it again.
func (l *sseLoad) run(ctx context.Context) {
	defer syscall.Close(l.epfd)
	events := make([]syscall.EpollEvent, 256)
	buf := make([]byte, 64<<10)
	for ctx.Err() == nil {
		n, err := syscall.EpollWait(l.epfd, events, 50)
		if err != nil && err != syscall.EINTR {
			return
		}
		for _, e := range events[:max(n, 0)] {
			v := l.viewers[e.Fd]
			if v.done {
				continue
			}
			k, err := syscall.Read(v.fd, buf)
			if k > 0 {
				l.read.Add(int64(k))
				l.feed(v, buf[:k], time.Now())
			}
			if err == syscall.EAGAIN || err == syscall.EINTR {
				continue
			}
			if k <= 0 {
				l.stop(v)
			}
		}
	}
}

func (l *sseLoad) stop(v *sseViewer) {
	v.done = true
	syscall.EpollCtl(l.epfd, syscall.EPOLL_CTL_DEL, v.fd, nil)
	select {
	case l.ended <- v.id:
	default:
	}
}

// feed decodes the chunked body and hands each line's start to line.
func (l *sseLoad) feed(v *sseViewer, b []byte, now time.Time) {
	for len(b) > 0 && !v.done {
		switch v.state {
		case 0: // the size line: hex digits, perhaps ";ext", CRLF
			c := b[0]
			b = b[1:]
			switch {
			case c == '\n':
				if v.rem == 0 {
					l.stop(v) // the last chunk: the stream ended
					return
				}
				v.state, v.ext = 1, false
			case v.ext || c == '\r':
			case c == ';':
				v.ext = true
			default:
				d := hexDigit(c)
				if d < 0 {
					l.stop(v)
					return
				}
				v.rem = v.rem<<4 | d
			}
		case 1:
			k := min(v.rem, len(b))
			l.lines(v, b[:k], now)
			b, v.rem = b[k:], v.rem-k
			if v.rem == 0 {
				v.state = 2
			}
		case 2: // the CRLF after the data
			c := b[0]
			b = b[1:]
			if c == '\n' {
				v.state = 0
			}
		}
	}
}

// lines keeps the first bytes of each line and reads the seq of every
// "data:" line.
func (l *sseLoad) lines(v *sseViewer, p []byte, now time.Time) {
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		seg := p
		if i >= 0 {
			seg = p[:i]
		}
		v.hn += copy(v.head[v.hn:], seg)
		if i < 0 {
			return
		}
		if seq, ok := dataSeq(v.head[:v.hn]); ok {
			l.arr.arrived(v.id, seq, now)
		}
		v.hn, p = 0, p[i+1:]
	}
}

// dataSeq reads the seq of a view or patch's data line, from its start.
func dataSeq(line []byte) (uint64, bool) {
	rest, ok := bytes.CutPrefix(line, []byte("data: {"))
	if !ok {
		return 0, false
	}
	i := bytes.Index(rest, []byte(`"seq":`))
	if i < 0 {
		return 0, false
	}
	var seq uint64
	n := 0
	for _, c := range rest[i+6:] {
		if c < '0' || c > '9' {
			break
		}
		seq, n = seq*10+uint64(c-'0'), n+1
	}
	return seq, n > 0
}

func hexDigit(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}
