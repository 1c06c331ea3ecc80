# PowerShell completion for charter
# Install: add this line to your profile ($PROFILE)
#   charter completion powershell | Out-String | Invoke-Expression

Register-ArgumentCompleter -Native -CommandName 'charter', 'charter.exe' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)
    $words = @($commandAst.CommandElements |
        Where-Object { $_.Extent.StartOffset -lt $cursorPosition } |
        ForEach-Object { $_.Extent.Text } |
        Select-Object -Skip 1)
    if ($wordToComplete -eq '') {
        # Windows PowerShell drops an empty argument; charter reads "" as one.
        $words += '""'
    }
    $paths = $false
    & charter __complete -- @words 2>$null | ForEach-Object {
        if ($_ -eq ':files' -or $_ -eq ':dirs') { $paths = $true; return }
        if ($_ -eq '') { return }
        $value, $desc = $_ -split "`t", 2
        if (-not $desc) { $desc = $value }
        [System.Management.Automation.CompletionResult]::new($value, $value, 'ParameterValue', $desc)
    }
    # Returning nothing for :files and :dirs lets PowerShell complete paths.
}
