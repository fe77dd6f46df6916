package broadcast

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"log/slog"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	mochi "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/listeners"
	"github.com/mochi-mqtt/server/v2/packets"
)

// testCA writes a CA certificate to dir and returns it with a server
// certificate for 127.0.0.1 that it signed.
func testCA(t *testing.T, dir string) (caFile string, server tls.Certificate) {
	t.Helper()
	caKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	caTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "zertzboard test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, _ := x509.ParseCertificate(caDER)
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		KeyUsage: x509.KeyUsageDigitalSignature,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	caFile = filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	return caFile, tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

// allowAll lets every client do anything (mochi's auth.AllowHook would
// pull in a YAML module this repository does not pin).
type allowAll struct{ mochi.HookBase }

func (*allowAll) ID() string { return "allow-all" }
func (*allowAll) Provides(b byte) bool {
	return b == mochi.OnConnectAuthenticate || b == mochi.OnACLCheck
}
func (*allowAll) OnConnectAuthenticate(*mochi.Client, packets.Packet) bool { return true }
func (*allowAll) OnACLCheck(*mochi.Client, string, bool) bool              { return true }

// funcHandler is a slog.Handler calling a function per record.
type funcHandler func(slog.Record)

func (h funcHandler) Enabled(context.Context, slog.Level) bool      { return true }
func (h funcHandler) Handle(_ context.Context, r slog.Record) error { h(r); return nil }
func (h funcHandler) WithAttrs([]slog.Attr) slog.Handler            { return h }
func (h funcHandler) WithGroup(string) slog.Handler                 { return h }

// TestTLS publishes over ssl:// to a mochi TLS listener, trusting only the
// CA file; without it the connection must fail.
func TestTLS(t *testing.T) {
	caFile, cert := testCA(t, t.TempDir())
	var refused atomic.Int32 // handshakes the server saw fail on a certificate
	logs := slog.New(funcHandler(func(r slog.Record) {
		r.Attrs(func(a slog.Attr) bool {
			if a.Key == "error" && strings.Contains(a.Value.String(), "certificate") {
				refused.Add(1)
			}
			return true
		})
	}))
	srv := mochi.New(&mochi.Options{Logger: logs, InlineClient: true})
	if err := srv.AddHook(new(allowAll), nil); err != nil {
		t.Fatal(err)
	}
	ln := listeners.NewTCP(listeners.Config{ID: "tls", Address: "127.0.0.1:0",
		TLSConfig: &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}})
	if err := srv.AddListener(ln); err != nil {
		t.Fatal(err)
	}
	got := newCollector()
	if err := srv.Subscribe("zertz/#", 1, func(_ *mochi.Client, _ packets.Subscription, pk packets.Packet) {
		got.add(pk.TopicName, pk.Payload, pk.FixedHeader.Retain)
	}); err != nil {
		t.Fatal(err)
	}
	if err := srv.Serve(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	url := "ssl://" + ln.Address()

	cfg := testConfig(t, url)
	cfg.TLS.CAFile = caFile
	p := newPublisher(t, cfg)
	p.PublishMove(move(1))
	waitUntil(t, "a move over TLS", hasSeq(got, t, "moves", 1))

	cfg = testConfig(t, url) // system roots: the test CA is unknown
	cfg.ClientID = "untrusting"
	cfg.CloseTimeout = 10 * time.Millisecond
	q := newPublisher(t, cfg)
	q.PublishState(state(1))
	waitUntil(t, "a refused handshake", func() bool { return refused.Load() > 0 })
	if q.Connected() {
		t.Error("connected to a server whose certificate it cannot verify")
	}
}
