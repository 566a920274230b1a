print("voiceguide")
