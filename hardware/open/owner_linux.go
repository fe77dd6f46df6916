package open

import (
	"os"
	"os/user"
	"strconv"
	"syscall"
)

// ownerGroup is the name of the group that owns path, or "".
func ownerGroup(path string) string {
	fi, err := os.Stat(path)
	if err != nil {
		return ""
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return ""
	}
	g, err := user.LookupGroupId(strconv.FormatUint(uint64(st.Gid), 10))
	if err != nil {
		return ""
	}
	return g.Name
}
