from referee_app.cli import main

main()
