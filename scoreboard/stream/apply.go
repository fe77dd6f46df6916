package stream

import (
	"html"
	"strings"
)

// Apply rebuilds the HTML of the next view from a and the patch, as the
// page's script does: the reference the tests check the patches against.
func Apply(a *Node, p Patch) string {
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
	var build func(n *Node)
	build = func(n *Node) {
		if h, ok := parts[n.key]; ok {
			sb.WriteString(h)
			return
		}
		if h, ok := appends[n.key]; ok {
			sb.WriteString(n.html[:len(n.html)-len(n.tag)-3])
			sb.WriteString(h)
			sb.WriteString("</" + n.tag + ">")
			return
		}
		list, ok := attrs[n.key]
		if !ok {
			list = n.attrs
		}
		sb.WriteString("<" + n.tag)
		for i := 0; i+1 < len(list); i += 2 {
			sb.WriteString(" " + list[i] + `="` + html.EscapeString(list[i+1]) + `"`)
		}
		_, rest, _ := strings.Cut(n.skel, ">")
		if n.inner == "" && strings.HasSuffix(n.html, "/>") {
			sb.WriteString("/>")
			return
		}
		sb.WriteString(">")
		for _, kid := range n.kids {
			i := strings.IndexByte(rest, 0)
			sb.WriteString(rest[:i])
			build(kid)
			j := strings.IndexByte(rest[i+1:], 0)
			rest = rest[i+1+j+1:]
		}
		sb.WriteString(rest)
		sb.WriteString("</" + n.tag + ">")
	}
	build(a)
	return sb.String()
}
