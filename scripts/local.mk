# sweep and report tools
