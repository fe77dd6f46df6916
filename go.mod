module github.com/zertzboard/zertzboard

go 1.24.0
