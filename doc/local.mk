# user documentation
