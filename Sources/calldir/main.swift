import CommandLineKit

CommandLineTool.main(Calldir.self)
