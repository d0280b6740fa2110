// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

// More sample tokens for the contract analyzer's tests (test/analyzer-fixtures.ts deploys them next
// to the devnet's own sample tokens in contracts/SampleTokens.sol).

/// Different taxes on buys (from the pair), sells (to the pair) and plain transfers, in basis points,
/// paid to the fee wallet. The owner and the fee wallet trade tax-free (to add liquidity).
contract TaxToken is ERC20, Ownable {
    uint256 public buyTaxBps;
    uint256 public sellTaxBps;
    uint256 public transferTaxBps;
    address public pair;
    address public feeWallet;

    constructor(uint256 supply, uint256 buyBps, uint256 sellBps, uint256 transferBps)
        ERC20("Tax Token", "TAX")
        Ownable(msg.sender)
    {
        buyTaxBps = buyBps;
        sellTaxBps = sellBps;
        transferTaxBps = transferBps;
        feeWallet = msg.sender;
        _mint(msg.sender, supply);
    }

    function setPair(address pair_) external onlyOwner {
        pair = pair_;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (from == address(0) || to == address(0) || from == feeWallet || to == feeWallet) {
            return super._update(from, to, value);
        }
        uint256 bps = from == pair ? buyTaxBps : to == pair ? sellTaxBps : transferTaxBps;
        uint256 fee = (value * bps) / 10_000;
        if (fee > 0) super._update(from, feeWallet, fee);
        super._update(from, to, value - fee);
    }
}

/// A delayed honeypot: sells work at launch, then revert for everyone but the owner once `delay`
/// seconds have passed since deployment. Ownership is renounced-looking (a plain owner variable
/// would give it away), so only a simulation at a later time catches it.
contract DelayedHoneypotToken is ERC20 {
    uint256 public immutable sellsCloseAt;
    address private immutable keeper;
    address public pair;

    constructor(uint256 supply, uint256 delay) ERC20("Slow Trap", "TRAP") {
        sellsCloseAt = block.timestamp + delay;
        keeper = msg.sender;
        _mint(msg.sender, supply);
    }

    function setPair(address pair_) external {
        require(msg.sender == keeper && pair == address(0), "once");
        pair = pair_;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (to == pair && from != keeper && block.timestamp >= sellsCloseAt) revert("sells closed");
        super._update(from, to, value);
    }
}

/// An LP locker with the read interface of UNCX (Unicrypt) Liquidity Locker V2:
/// getNumLocksForToken(lpToken) and tokenLocks(lpToken, index).
contract UncxStyleLocker {
    struct TokenLock {
        uint256 lockDate;
        uint256 amount;
        uint256 initialAmount;
        uint256 unlockDate;
        uint256 lockID;
        address owner;
    }

    mapping(address => TokenLock[]) public tokenLocks;
    uint256 private nextId;

    function lockLPToken(address lpToken, uint256 amount, uint256 unlockDate) external {
        require(unlockDate > block.timestamp, "unlock in the past");
        require(ERC20(lpToken).transferFrom(msg.sender, address(this), amount), "transfer failed");
        tokenLocks[lpToken].push(TokenLock(block.timestamp, amount, amount, unlockDate, nextId++, msg.sender));
    }

    function getNumLocksForToken(address lpToken) external view returns (uint256) {
        return tokenLocks[lpToken].length;
    }

    function withdraw(address lpToken, uint256 index, uint256 amount) external {
        TokenLock storage entry = tokenLocks[lpToken][index];
        require(msg.sender == entry.owner && block.timestamp >= entry.unlockDate && amount <= entry.amount, "locked");
        entry.amount -= amount;
        require(ERC20(lpToken).transfer(msg.sender, amount), "transfer failed");
    }
}
