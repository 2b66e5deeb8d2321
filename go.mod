module github.com/agc-sarif/agc-sarif

go 1.26.0

require (
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	github.com/urfave/cli/v2 v2.27.7
)

require (
	github.com/BurntSushi/toml v1.6.0
	github.com/bmatcuk/doublestar/v4 v4.10.4
	github.com/cpuguy83/go-md2man/v2 v2.0.7 // indirect
	github.com/google/go-github/v93 v93.0.0
	github.com/google/go-querystring v1.2.0 // indirect
	github.com/owenrumney/go-sarif/v2 v2.3.3
	github.com/rogpeppe/go-internal v1.16.0
	github.com/russross/blackfriday/v2 v2.1.0 // indirect
	github.com/sethvargo/go-githubactions v1.3.2
	github.com/xrash/smetrics v0.0.0-20240521201337-686a1a2994c1
	github.com/yuin/goldmark v1.8.7
	golang.org/x/sys v0.47.0
	golang.org/x/text v0.14.0
	golang.org/x/tools v0.38.0 // indirect
	mvdan.cc/sh/v3 v3.14.1
)
