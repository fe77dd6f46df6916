package referee

import "github.com/zertzboard/zertzboard/engine"

// Role is what a cell's LED should say.
type Role uint8

// The roles, lowest priority first (RoleSensorFault excepted): when a
// cell has several, the highest wins.
const (
	RoleNone           Role = iota
	RoleLastMove            // part of the last turn
	RoleFreeRing            // a ring that may be removed
	RoleJumpTarget          // a ring a capture can land on
	RoleMustCapture         // a marble that can (and so must) start a capture
	RoleChainContinues      // the jumping marble, which must jump again
	RoleTakeOff             // take this off the board: a claimed ring or a captured marble
	RoleWrong               // the cell should hold Hint.Should
	// The engine's turn (or a hint): a marble of this colour goes here.
	RolePlaceWhite
	RolePlaceGrey
	RolePlaceBlack
	RoleRemoveRing // the engine's turn (or a hint): remove this ring
	// RoleSensorFault: the socket's sensor is dead or stuck, and the
	// referee goes on without it. Numbered last, it ranks just above
	// RoleNone: any other role on the cell says more.
	RoleSensorFault
	// RoleMax is the highest role.
	RoleMax = RoleSensorFault
)

var roleNames = [...]string{"", "last-move", "free-ring", "jump-target", "must-capture", "chain-continues", "take-off", "wrong", "place-white", "place-grey", "place-black", "remove-ring", "sensor-fault"}

// rank orders roles by priority.
func (r Role) rank() int {
	switch r {
	case RoleNone:
		return 0
	case RoleSensorFault:
		return 1
	}
	return int(r) + 1
}

func (r Role) String() string {
	if int(r) < len(roleNames) {
		return roleNames[r]
	}
	return "role?"
}

// MarshalText writes the role's name.
func (r Role) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// Hint is one cell's guidance.
type Hint struct {
	Role   Role           `json:"role"`
	Should engine.Content `json:"-"` // with RoleWrong: what the cell should hold
}

// Guidance is what the LEDs and the status screen should show: one Hint
// per cell in board order, and one status line. It is pure data; the
// display layer decides colours and words.
type Guidance struct {
	Hints []Hint
	// Status is the status line in English, as on the wire: the English
	// of Parts, joined with "; ".
	Status string
	// Parts are the status line's messages, most important first, for
	// saying them in another language.
	Parts []Message
}

// hints builds guidance hints; set keeps the highest role per cell.
type hints []Hint

func (h hints) set(c engine.Cell, r Role) {
	if c >= 0 && int(c) < len(h) && r.rank() > h[c].Role.rank() {
		h[c].Role = r
	}
}

func (h hints) wrong(c engine.Cell, should engine.Content) {
	h[c] = Hint{Role: RoleWrong, Should: should}
}
