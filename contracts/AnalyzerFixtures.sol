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

/// An LP locker with the read interface of PinkLock V2 (PinkSale's PinkLock02):
/// totalLockCountForToken(token) and getLocksForToken(token, start, end) (end inclusive, clamped to
/// the last lock), returning its Lock struct. A plain lock unlocks at tgeDate (no vesting cycles).
contract PinkLockStyleLocker {
    struct Lock {
        uint256 id;
        address token;
        address owner;
        uint256 amount;
        uint256 lockDate;
        uint256 tgeDate;
        uint256 tgeBps;
        uint256 cycle;
        uint256 cycleBps;
        uint256 unlockedAmount;
        string description;
    }

    Lock[] private allLocks;
    mapping(address => uint256[]) private tokenLockIds;

    function lock(address owner, address token, bool, uint256 amount, uint256 unlockDate, string memory description)
        external
        returns (uint256 id)
    {
        require(unlockDate > block.timestamp, "unlock in the past");
        require(ERC20(token).transferFrom(msg.sender, address(this), amount), "transfer failed");
        id = allLocks.length;
        allLocks.push(Lock(id, token, owner, amount, block.timestamp, unlockDate, 0, 0, 0, 0, description));
        tokenLockIds[token].push(id);
    }

    function totalLockCountForToken(address token) external view returns (uint256) {
        return tokenLockIds[token].length;
    }

    function getLocksForToken(address token, uint256 start, uint256 end) external view returns (Lock[] memory locks) {
        uint256[] storage ids = tokenLockIds[token];
        if (end >= ids.length) end = ids.length - 1;
        locks = new Lock[](end - start + 1);
        for (uint256 i = start; i <= end; i++) locks[i - start] = allLocks[ids[i]];
    }

    function unlock(uint256 lockId) external {
        Lock storage entry = allLocks[lockId];
        require(msg.sender == entry.owner && block.timestamp >= entry.tgeDate, "locked");
        uint256 amount = entry.amount - entry.unlockedAmount;
        entry.unlockedAmount = entry.amount;
        require(ERC20(entry.token).transfer(msg.sender, amount), "transfer failed");
    }
}

/// An LP locker with the read interface of Team Finance's LockToken:
/// getDepositsByTokenAddress(token) (deposit ids) and lockedToken(id) (its public Items mapping).
contract TeamFinanceStyleLocker {
    struct Items {
        address tokenAddress;
        address withdrawalAddress;
        uint256 tokenAmount;
        uint256 unlockTime;
        bool withdrawn;
    }

    uint256 public depositId;
    mapping(uint256 => Items) public lockedToken;
    mapping(address => uint256[]) private depositsByTokenAddress;

    function lockToken(address tokenAddress, address withdrawalAddress, uint256 amount, uint256 unlockTime)
        external
        returns (uint256 id)
    {
        require(unlockTime > block.timestamp, "unlock in the past");
        require(ERC20(tokenAddress).transferFrom(msg.sender, address(this), amount), "transfer failed");
        id = ++depositId;
        lockedToken[id] = Items(tokenAddress, withdrawalAddress, amount, unlockTime, false);
        depositsByTokenAddress[tokenAddress].push(id);
    }

    function getDepositsByTokenAddress(address tokenAddress) external view returns (uint256[] memory) {
        return depositsByTokenAddress[tokenAddress];
    }

    function withdrawTokens(uint256 id) external {
        Items storage entry = lockedToken[id];
        require(msg.sender == entry.withdrawalAddress && block.timestamp >= entry.unlockTime && !entry.withdrawn, "locked");
        entry.withdrawn = true;
        require(ERC20(entry.tokenAddress).transfer(msg.sender, entry.tokenAmount), "transfer failed");
    }
}

interface IPositionNftFixture {
    function transferFrom(address from, address to, uint256 tokenId) external;
}

/// A Uniswap V3 position locker with the read interface of UNCX's V3 liquidity locker
/// (UNCX_ProofOfReservesV2_UniV3): getLocksLength() and getLock(lockId), the locker holding each
/// position NFT. Locking takes the NFT; withdrawing after the unlock date gives it back.
contract UncxV3StyleLocker {
    struct Lock {
        uint256 lock_id;
        address nftPositionManager;
        address pool;
        uint256 nft_id;
        address owner;
        address pendingOwner;
        address additionalCollector;
        address collectAddress;
        uint256 unlockDate;
        uint16 countryCode;
        uint256 ucf;
    }

    Lock[] private locks;

    function lock(address nftPositionManager, uint256 nftId, address pool, uint256 unlockDate) external returns (uint256 id) {
        require(unlockDate > block.timestamp, "unlock in the past");
        IPositionNftFixture(nftPositionManager).transferFrom(msg.sender, address(this), nftId);
        id = locks.length;
        locks.push(Lock(id, nftPositionManager, pool, nftId, msg.sender, address(0), address(0), msg.sender, unlockDate, 0, 0));
    }

    function getLocksLength() external view returns (uint256) {
        return locks.length;
    }

    function getLock(uint256 lockId) external view returns (Lock memory) {
        return locks[lockId];
    }

    function withdraw(uint256 lockId, address receiver) external {
        Lock storage entry = locks[lockId];
        require(msg.sender == entry.owner && block.timestamp >= entry.unlockDate && entry.nft_id != 0, "locked");
        uint256 nftId = entry.nft_id;
        entry.nft_id = 0;
        IPositionNftFixture(entry.nftPositionManager).transferFrom(address(this), receiver, nftId);
    }
}
