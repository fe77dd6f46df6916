package streamtest

import (
	"html"
	"strings"

	"github.com/zertzboard/zertzboard/scoreboard/stream"
)

// Apply rebuilds the HTML of the next view from a and the patch, as the
// page's script does: the reference the tests check the patches against.
func Apply(a *stream.Node, p stream.Patch) string {
	attrs := map[string][]string{}
	for _, kv := range p.Attrs {
		var list []string
		switch v := kv[1].(type) {
		case []string:
			list = v
		case []any:
			for _, s := range v {
				str, _ := s.(string)
				list = append(list, str)
			}
		}
		attrs[kv[0].(string)] = list
	}
	appends, parts := map[string]string{}, map[string]string{}
	for _, kv := range p.Appends {
		appends[kv[0]] = kv[1]
	}
	for _, kv := range p.Parts {
		parts[kv[0]] = kv[1]
	}
	var sb strings.Builder
	var build func(n *stream.Node)
	build = func(n *stream.Node) {
		if h, ok := parts[n.Key()]; ok {
			sb.WriteString(h)
			return
		}
		if h, ok := appends[n.Key()]; ok {
			sb.WriteString(n.StartTag())
			sb.WriteString(n.Inner())
			sb.WriteString(h)
			sb.WriteString("</" + n.Tag() + ">")
			return
		}
		list, ok := attrs[n.Key()]
		if !ok {
			list = n.Attrs()
		}
		sb.WriteString("<" + n.Tag())
		for i := 0; i+1 < len(list); i += 2 {
			sb.WriteString(" " + list[i] + `="` + html.EscapeString(list[i+1]) + `"`)
		}
		sb.WriteString(">")
		between := n.Between()
		for i, kid := range n.Kids() {
			sb.WriteString(between[i])
			build(kid)
		}
		sb.WriteString(between[len(between)-1])
		sb.WriteString("</" + n.Tag() + ">")
	}
	build(a)
	return sb.String()
}
